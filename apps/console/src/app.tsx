export function App() {
  return (
    <main>
      <h1>Sitemaps console</h1>
      <p>Sign in with an API key to see your sites.</p>
    </main>
  );
}

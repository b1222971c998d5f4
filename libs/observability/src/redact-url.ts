// Credentials customers put in URLs (https://user:password@hooks.example.com/, ?token=...) are
// theirs: a URL that goes into a log line, an error or a job's failure reason goes through here
// first. The userinfo goes, and so do the values of query parameters whose names say "secret".

const HIDDEN = 'REDACTED';

/** Query parameter names that carry a credential: token, access_token, api_key, apiKey, sig, X-Amz-Signature... */
const SECRET_PARAM =
  /(?:token|secret|passw(?:or)?d|pwd|pass|key|signature|sig|auth|authorization|credentials?|session(?:id)?|jwt|code)$/i;

/** The URL without userinfo and with secret-looking query values replaced; anything that is not a URL comes back as it was. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
    changed = true;
  }
  for (const name of new Set(parsed.searchParams.keys())) {
    if (!SECRET_PARAM.test(name)) continue;
    parsed.searchParams.set(name, HIDDEN);
    changed = true;
  }
  return changed ? parsed.href : url;
}

/** A request's path and query (`/v1/x?token=...`), redacted as a URL would be. */
export function redactPath(path: string): string {
  if (!path.includes('?')) return path;
  const redacted = redactUrl(`http://_${path.startsWith('/') ? '' : '/'}${path}`);
  return redacted.startsWith('http://_') ? redacted.slice('http://_'.length) : path;
}

/** Every http(s) URL in a text (an error message, a failure reason), redacted. */
export function redactUrls(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s"'<>]+/gi, (url) => {
    // A URL at the end of a sentence keeps its punctuation outside.
    const tail = /[),.;:]+$/.exec(url)?.[0] ?? '';
    return redactUrl(url.slice(0, url.length - tail.length)) + tail;
  });
}

// A real DNS server on 127.0.0.1 (dns2 over UDP) whose zone a test edits as it goes: the
// platform's verification resolver is pointed at it (VERIFICATION_DNS_SERVERS), so a TXT record
// can be published and later removed, as an owner would at their DNS provider.
import dns2 from 'dns2';

const { Packet } = dns2;

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for VERIFICATION_DNS_SERVERS. */
  address: string;
  setTxt(name: string, values: string[]): void;
  setA(name: string, address: string): void;
  /** The name an IPv4 address reverse-resolves to (PTR at `d.c.b.a.in-addr.arpa`). */
  setPtr(address: string, name: string): void;
  remove(name: string, type?: 'A' | 'TXT'): void;
  /** Names asked for so far, with their type. */
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const a = new Map<string, string>();
  const ptr = new Map<string, string>();
  const queries: { name: string; type: number }[] = [];
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    for (const question of request.questions) {
      const name = question.name.toLowerCase().replace(/\.$/, '');
      queries.push({ name, type: question.type });
      if (question.type === Packet.TYPE.TXT && txt.has(name)) {
        for (const value of txt.get(name) ?? [])
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, data: value }));
      } else if (question.type === Packet.TYPE.A && a.has(name)) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, address: a.get(name) }));
      } else if (question.type === Packet.TYPE.PTR && ptr.has(name)) {
        response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 1, domain: ptr.get(name) }));
      } else if (!txt.has(name) && !a.has(name) && !ptr.has(name)) {
        response.header.rcode = 3; // NXDOMAIN
      }
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => void txt.set(name, values),
    setA: (name, address) => void a.set(name, address),
    setPtr: (address, name) => void ptr.set(`${address.split('.').reverse().join('.')}.in-addr.arpa`, name),
    remove(name, type) {
      if (type !== 'A') txt.delete(name);
      if (type !== 'TXT') a.delete(name);
    },
    queries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

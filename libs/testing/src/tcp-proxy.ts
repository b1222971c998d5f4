// A TCP forwarder on a spare port of 127.0.0.1, for fault tests: the stand-in for a virtual IP, a
// DNS name or a connection pooler in front of a database. `retarget` points new connections
// elsewhere and cuts the open ones, as a failover of the address behind the name would.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  retarget(port: number): void;
  stop(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: target });
    open.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    retarget(port: number) {
      target = port;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    async stop() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Closing a connection whose request body was not read: Node ends the socket as soon as the
// answer is written, and a socket closed with unread bytes sends a TCP reset, which can reach the
// client before it has read the answer (it sees ECONNRESET, not the 401 or 413). Like nginx's
// lingering_close, keep reading and discarding for a moment after the answer, then close.
import type { Socket } from 'node:net';

const LINGER_MS = 2_000;

/** Call before answering with `Connection: close`; replaces Node's close of this one socket. */
export function lingerOnClose(socket: Socket | null | undefined, ms = LINGER_MS): void {
  if (!socket || socket.destroyed) return;
  socket.destroySoon = function destroyAfterLinger(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), ms).unref();
    this.once('close', () => clearTimeout(timer));
    // The client closing its side after our FIN ends the wait early.
    this.once('end', () => this.destroy());
    this.resume();
  };
}

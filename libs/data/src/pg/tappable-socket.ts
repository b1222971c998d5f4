// A Postgres connection's socket that reads into one buffer of its own, over and over, instead of
// a new 64 KiB buffer per read. A full build reads ~450 MB of fragments per million URLs through
// the COPY, and every new read buffer is memory outside V8's heap that V8 answers with full
// collections of the heap (two dozen per million URLs, more CPU than the deflate). A reader that
// takes the bytes where they land (`tap`: the fragment COPY, which copies them into its own
// blocks) leaves nothing behind for the collector. Everything else goes to pg: a small read as a
// copy (from Node's buffer pool), a large one as it is, the next read then getting a new buffer as
// on a plain socket.
import net from 'node:net';

/** Takes the bytes a connection reads while it is set on the socket. */
export interface SocketTap {
  /**
   * `bytes` are valid during the call only. False pauses reading until `resumeReading`. The tap
   * ends itself with `untap`, giving back what follows its part of the stream.
   */
  receive(bytes: Buffer): boolean;
}

const READ_BUFFER_BYTES = 64 * 1024;
/** Reads below this size go to pg as copies (small ones from Node's buffer pool), larger ones as they are. */
const COPY_BELOW_BYTES = 16 * 1024;

export class TappableSocket extends net.Socket {
  private tapped: SocketTap | null = null;
  private readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  /** The read buffer went to pg as it is: the next read needs a new one. */
  private handedOver = false;

  constructor() {
    // Called only once connected, after the constructor has returned.
    const reader: { socket?: TappableSocket } = {};
    // `onread` is net.Socket's (Node >= 12) though its typings name it for net.connect only. With
    // a function for `buffer`, net asks it for the buffer of each next read.
    const onread: net.OnReadOpts = {
      buffer: () => (reader.socket as TappableSocket).nextReadBuffer(),
      callback: (bytes, buffer) =>
        (reader.socket as TappableSocket).received(Buffer.from(buffer.buffer, buffer.byteOffset, bytes)),
    };
    super({ onread } as net.SocketConstructorOpts);
    reader.socket = this;
  }

  /** Hands what the connection reads from now on to `tap`, until it calls `untap`. */
  setTap(tap: SocketTap): void {
    if (this.tapped) throw new Error('the socket is already tapped');
    this.tapped = tap;
  }

  /** Ends the tap; `rest` (bytes past the tap's part, valid during the call only) goes to pg. */
  untap(tap: SocketTap, rest: Buffer | null): void {
    if (this.tapped !== tap) return;
    this.tapped = null;
    if (rest && rest.length > 0) this.push(Buffer.from(rest));
    this.resumeReading();
  }

  /** Reads on after a tap paused it. */
  resumeReading(): void {
    // With a read buffer of its own, resume() starts the handle's reads again (net.Socket).
    if (!this.destroyed) this.resume();
  }

  private received(bytes: Buffer): boolean {
    if (this.tapped) return this.tapped.receive(bytes);
    if (bytes.length < COPY_BELOW_BYTES) return this.push(Buffer.from(bytes));
    // As a plain socket does: the buffer is pg's now, and the next read gets a new one.
    this.handedOver = true;
    return this.push(bytes);
  }

  private nextReadBuffer(): Buffer {
    if (this.handedOver) {
      this.readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
      this.handedOver = false;
    }
    return this.readBuffer;
  }
}

/**
 * pg's `stream` option: a TappableSocket, or pg's own socket for TLS (the TLS socket wraps the plain
 * one, whose reads it then takes).
 */
export function pgSocket(config?: { ssl?: unknown }): net.Socket {
  return config?.ssl ? new net.Socket() : new TappableSocket();
}

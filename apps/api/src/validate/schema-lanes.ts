// When a validation may run its schema pass: libxml2 builds the document's tree in WebAssembly
// memory, hundreds of MB for a 50 MiB file, outside the API's heap cap. Large documents take
// turns in one lane; small ones have a lane of their own, so a 134-byte check never waits behind
// another tenant's 50 MiB file. At most one large and `smallSlots` small trees exist at once.

/** Up to this many bytes (uncompressed) a document is small: its tree costs tens of MB at most. */
export const SMALL_DOCUMENT_BYTES = 1024 * 1024;

class Lane {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number) {}

  async enter(): Promise<() => void> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The slot passes straight to the next in line, so `running` never drops under a waiter.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }
}

export class SchemaLanes {
  private readonly small: Lane;
  private readonly large = new Lane(1);

  constructor(smallSlots = 2) {
    this.small = new Lane(smallSlots);
  }

  /** Waits for room for the schema pass of a document of `bytes` (uncompressed); returns its release. */
  admit = (bytes: number): Promise<() => void> => (bytes <= SMALL_DOCUMENT_BYTES ? this.small : this.large).enter();
}

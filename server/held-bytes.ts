/** Large enough that a report needs few, small enough that the last one wastes little. */
const BLOCK_BYTES = 1024 * 1024;

/**
 * Texts kept as UTF-8 bytes outside the JavaScript heap, in order, to be read back once: the
 * canonical text of every test waits for the run's header (ingest.ts), and as 50,000 strings it
 * survived young-generation collection after collection, copied each time. The bytes are the
 * ones hash.update(text) would have read.
 */
export class HeldBytes {
  private readonly blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(BLOCK_BYTES);
  private used = 0;

  add(text: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    if (text.length * 3 > this.block.length - this.used) {
      this.seal();
      if (text.length * 3 > BLOCK_BYTES) {
        this.blocks.push(Buffer.from(text, 'utf8'));
        return;
      }
      this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    }
    this.used += this.block.write(text, this.used, 'utf8');
  }

  /** The bytes in the order added; the holder is empty afterwards. */
  *take(): Generator<Buffer, void, undefined> {
    this.seal();
    const blocks = this.blocks.splice(0);
    for (let i = 0; i < blocks.length; i++) {
      yield blocks[i]!;
      blocks[i] = EMPTY;
    }
  }

  private seal(): void {
    if (this.used > 0) this.blocks.push(this.block.subarray(0, this.used));
    this.block = EMPTY;
    this.used = 0;
  }
}

const EMPTY = Buffer.alloc(0);

import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Text gathered from whole pieces before one write. */
const WRITE_CHARS = 64 * 1024;

/**
 * Writes pieces of text as they come, a few whole pieces per write (never one cut in two, so the
 * key's redaction sees every piece whole), waiting whenever the stream's buffer is full.
 */
export async function writeChunks(stream: Writable, chunks: Iterable<string>): Promise<void> {
  let text = '';
  for (const chunk of chunks) {
    text += chunk;
    if (text.length < WRITE_CHARS) continue;
    const more = stream.write(text);
    text = '';
    if (!more) await once(stream, 'drain');
  }
  if (text !== '' && !stream.write(text)) await once(stream, 'drain');
}

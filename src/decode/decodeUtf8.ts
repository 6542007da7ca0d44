import { StringDecoder } from 'node:string_decoder';

/** UTF-8 bytes as text, a character split across reads kept whole. */
export async function* decodeUtf8(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of bytes) yield decoder.write(chunk);
  const rest = decoder.end();
  if (rest) yield rest;
}

/**
 * The paths and object ids in a git index file (the staging area, `.git/index`):
 * what `git checkout -- <path>` can give back. Versions 2, 3 and 4 of the format
 * (git's Documentation/gitformat-index.txt); anything else reads as empty, so every
 * deleted file then counts as lost, never the other way round.
 */
export function indexEntries(bytes: Buffer): Map<string, string> {
  const entries = new Map<string, string>();
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return entries;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return entries;
  const count = bytes.readUInt32BE(8);
  let at = 12;
  let previous = '';
  for (let i = 0; i < count && at + 62 <= bytes.length; i++) {
    const start = at;
    const id = bytes.toString('hex', at + 40, at + 60);
    const flags = bytes.readUInt16BE(at + 60);
    at += 62;
    if (version >= 3 && flags & 0x4000) at += 2;
    let name: string;
    if (version === 4) {
      const [strip, used] = varint(bytes, at);
      at += used;
      const end = bytes.indexOf(0, at);
      if (end < 0) break;
      name = previous.slice(0, Math.max(0, previous.length - strip)) + bytes.toString('utf8', at, end);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, at);
      if (end < 0) break;
      name = bytes.toString('utf8', at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of eight bytes.
      at = start + Math.floor((end - start + 8) / 8) * 8;
    }
    previous = name;
    // Stage 0 only: a conflicted path's other stages are not what checkout restores.
    if (((flags >> 12) & 3) === 0) entries.set(name, id);
  }
  return entries;
}

/** git's offset varint (varint.c): seven bits a byte, each continuation adding one. */
function varint(bytes: Buffer, at: number): [number, number] {
  let i = at;
  let c = bytes[i++]!;
  let value = c & 0x7f;
  while (c & 0x80) {
    c = bytes[i++]!;
    value = ((value + 1) << 7) | (c & 0x7f);
  }
  return [value, i - at];
}

/** Characters are Unicode code points wherever the spec counts them. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** The first `count` code points of `text`; never splits a surrogate pair. */
export function codePointPrefix(text: string, count: number): string {
  let taken = 0;
  let i = 0;
  while (i < text.length && taken < count) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length;
    const next = pair ? text.charCodeAt(i + 1) : 0;
    i += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    taken++;
  }
  return text.slice(0, i);
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 or returns null when the bytes are not valid UTF-8 (never replaces characters). */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * RFC 4180 rows for MUNCH table sections, with the two distinctions MUNCH needs:
 * an unquoted empty field is `null`, a quoted empty field `""` is the empty string,
 * and quoting is reported per field so the decoder knows which fields to unescape.
 *
 * Written here rather than through `csv-stringify`/`csv-parse` (which the tests still use
 * as an interoperability oracle): `csv-stringify` quotes `null` like `""` under
 * `quoted_empty`, and both were about 10x too slow for the codec's speed target.
 *
 * @module
 */

/** One parsed field: its text and whether it was quoted. */
export interface CsvField {
  text: string;
  quoted: boolean;
}

const NEEDS_QUOTES = /[",\n\r]|^\s|\s$/;

/**
 * Format one field. `null` is the unquoted empty field; `force` quotes the field even when
 * RFC 4180 would not need it (the codec forces quotes on escaped text).
 */
export function formatField(text: string | null, force = false): string {
  if (text === null) return "";
  if (text === "") return '""';
  if (force || NEEDS_QUOTES.test(text)) {
    return '"' + (text.includes('"') ? text.replaceAll('"', '""') : text) + '"';
  }
  return text;
}

/**
 * Parse the rows of one section (lines joined by `\n`, no trailing newline).
 * Quoted fields may not span lines (the codec escapes line breaks), so each line is a row.
 * Throws `SyntaxError` with the 1-based line (offset by `firstLine`) and column.
 */
export function parseRows(section: string, firstLine: number): CsvField[][] {
  const rows: CsvField[][] = [];
  let lineNo = firstLine;
  let start = 0;
  while (start <= section.length) {
    let end = section.indexOf("\n", start);
    if (end === -1) end = section.length;
    rows.push(parseRow(section.slice(start, end), lineNo));
    lineNo++;
    start = end + 1;
  }
  return rows;
}

/** Parse one CSV line into fields. */
export function parseRow(line: string, lineNo: number): CsvField[] {
  const fields: CsvField[] = [];
  let i = 0;
  const n = line.length;
  while (true) {
    if (line.charCodeAt(i) === 34 /* " */) {
      let text = "";
      let j = i + 1;
      while (true) {
        const q = line.indexOf('"', j);
        if (q === -1) {
          throw new SyntaxError(
            `Cannot decode payload: unterminated quoted field at line ${lineNo}, column ${i + 1}`,
          );
        }
        text += line.slice(j, q);
        if (line.charCodeAt(q + 1) === 34) {
          text += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      fields.push({ text, quoted: true });
      if (j === n) return fields;
      if (line.charCodeAt(j) !== 44 /* , */) {
        throw new SyntaxError(
          `Cannot decode payload: expected "," after quoted field at line ${lineNo}, column ${
            j + 1
          }`,
        );
      }
      i = j + 1;
    } else {
      const c = line.indexOf(",", i);
      const end = c === -1 ? n : c;
      const text = line.slice(i, end);
      if (text.includes('"')) {
        throw new SyntaxError(
          `Cannot decode payload: unexpected quote in unquoted field at line ${lineNo}, column ${
            i + text.indexOf('"') + 1
          }`,
        );
      }
      fields.push({ text, quoted: false });
      if (c === -1) return fields;
      i = c + 1;
    }
  }
}

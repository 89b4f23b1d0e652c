/**
 * The start of a list entry, the one source for the PDF extraction in the browser
 * (src/lib/pdfTextLayout.ts: a line that starts an entry starts a unit), the offline coach
 * (coach/passageUnits.ts: a unit is an entry) and the database (private.is_entry_line() and
 * private.is_heading_line() in …_documents.sql restate it in Postgres' syntax;
 * tests/db/listEntry.test.ts holds them equal to `postgresEntryStart` and
 * `postgresBulletOrOptionStart`).
 *
 * An entry starts with a bullet or a dash, "1." or "a)", each followed by a space, or with an
 * option ("-r", "--rekursiv").
 */

/** The characters that bullet a list entry (the dashes last: "-" ends a character class). */
export const LIST_BULLETS = '•·▪◦‣∙●○■□►▸*–—-';

/** The alternatives of an entry's start; `alnum` is a letter or digit in the regex flavour at hand. */
function starts(alnum: string) {
  const bullet = `[${LIST_BULLETS}]`;
  const numbered = String.raw`\d{1,2}[.)]`;
  const lettered = String.raw`[a-z][.)]`;
  const option = `--?${alnum}`;
  return {
    /** A marker in front of an entry's text, without the space after it. */
    marker: `${bullet}|${numbered}|${lettered}`,
    entry: String.raw`${bullet}\s|${numbered}\s|${lettered}\s|${option}`,
    /** A bullet or an option: never a heading (a numbered line may be one, "2. Zahlung"). */
    bulletOrOption: String.raw`${bullet}\s|${option}`,
  };
}

const js = starts(String.raw`[\p{L}\p{N}]`);
const postgres = starts('[[:alnum:]]');

/** The alternatives of a list marker alone ("•", "1.", "a)"), as a JavaScript pattern's source (flag u). */
export const entryMarkerSource = js.marker;

/** A line that starts a list entry. */
export const entryStart = new RegExp(`^(?:${js.entry})`, 'u');

/** A line that starts with a bullet or an option (not a numbered line). */
export const bulletOrOptionStart = new RegExp(`^(?:${js.bulletOrOption})`, 'u');

/** `entryStart` in Postgres' regular expressions (they know no \p{…}), as the SQL functions write it. */
export const postgresEntryStart = String.raw`^\s*(?:${postgres.entry})`;

/** `bulletOrOptionStart` in Postgres' regular expressions. */
export const postgresBulletOrOptionStart = String.raw`^\s*(?:${postgres.bulletOrOption})`;

import type { PhysicalStore } from "../api/types";

/** Letters NFD does not split into a base letter and accents. */
const SPECIAL: Record<string, string> = {
  ß: "ss", æ: "ae", Æ: "ae", ø: "o", Ø: "o", œ: "oe", Œ: "oe", đ: "d", Đ: "d", ł: "l", Ł: "l", þ: "th", Þ: "th", ð: "d", Ð: "d", ı: "i",
};
const MAX_LEN = 60;

/**
 * The URL word of a name, exactly as the server makes it (internal/slug: the two share the test
 * cases of internal/slug/testdata/slugs.json): lower-case ASCII letters and digits joined by single
 * hyphens, accents folded, apostrophes dropped, at most 60 characters cut at a word boundary.
 */
export function slugify(name: string): string {
  let out = "";
  let gap = false;
  const add = (c: string) => {
    if (gap && out.length > 0) out += "-";
    gap = false;
    out += c;
  };
  for (const ch of name.normalize("NFD")) {
    if ((ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9")) add(ch);
    else if (ch >= "A" && ch <= "Z") add(ch.toLowerCase());
    else if (ch === "'" || ch === "’" || ch === "`" || /\p{Mn}/u.test(ch)) {
      // dropped inside a word
    } else if (SPECIAL[ch] !== undefined) for (const c of SPECIAL[ch]) add(c);
    else gap = true;
    if (out.length > MAX_LEN + 1) break;
  }
  if (out.length > MAX_LEN) {
    out = out.slice(0, MAX_LEN);
    const i = out.lastIndexOf("-");
    if (i > MAX_LEN / 2) out = out.slice(0, i);
    out = out.replace(/-+$/, "");
  }
  return out;
}

/** The store's page on this site: /stores/{state}/{city}/{name}-{id} (docs/store-pages.md). */
export function storePagePath(store: Pick<PhysicalStore, "id" | "name" | "state" | "city">): string {
  const part = (s: string | null | undefined, fallback: string) => slugify(s ?? "") || fallback;
  return `/stores/${part(store.state, "other")}/${part(store.city, "other")}/${part(store.name, "store")}-${store.id}`;
}

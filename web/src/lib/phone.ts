/**
 * Phone numbers as shoppers read them (docs/product-rules.md, "One truth per store"): a North
 * American number in its national format "(917) 555-0166" however it was stored ("+19175550166",
 * "917-555-0166"), any other as written. The server's copy is stores.PhoneText
 * (internal/stores/phone.go), which the store pages use.
 */

function digitsOf(phone: string): { digits: string; plus: boolean } {
  const trimmed = phone.trim();
  return { digits: trimmed.replace(/\D/g, ""), plus: trimmed.startsWith("+") };
}

/** The ten national digits of a North American number, or null. */
function nanp(phone: string): string | null {
  const { digits, plus } = digitsOf(phone);
  let d: string;
  if (digits.length === 11 && digits.startsWith("1")) d = digits.slice(1);
  else if (digits.length === 10 && !plus) d = digits;
  else return null;
  // An area code and an exchange never start with 0 or 1.
  return d[0]! < "2" || d[3]! < "2" ? null : d;
}

/** "(917) 555-0166" for a North American number, otherwise the number as written. */
export function formatPhone(phone: string): string {
  const d = nanp(phone);
  return d ? `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}` : phone.trim();
}

/** The tel: link: "+1" and ten digits for a North American number, otherwise its digits and a leading +. */
export function phoneHref(phone: string): string {
  const d = nanp(phone);
  if (d) return `tel:+1${d}`;
  const { digits, plus } = digitsOf(phone);
  return `tel:${plus ? "+" : ""}${digits}`;
}

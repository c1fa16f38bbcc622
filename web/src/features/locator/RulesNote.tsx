import type { PhysicalStore, Rule } from "../../api/types";

/** The rules every store of the answer is under (by id, in the first store's order). */
export function commonRules(stores: readonly PhysicalStore[]): Rule[] {
  const [first, ...rest] = stores;
  return (first?.rules ?? []).filter((r) => rest.every((s) => s.rules?.some((o) => o.id === r.id)));
}

/** Near the list: the rules that bind every store in view, once, with their source (docs/rules.md). */
export function RulesNote({ stores }: { stores: readonly PhysicalStore[] }) {
  const rules = commonRules(stores);
  if (!rules.length) return null;
  return (
    <ul className="border-b border-gray-200 px-4 py-2 text-xs text-gray-700" aria-label="Rules for every store here" data-testid="rules-note">
      {rules.map((r) => (
        <li key={r.id}>
          {r.summary} ·{" "}
          <a href={r.url} target="_blank" rel="noopener noreferrer" className="underline">
            {r.citation}
          </a>
        </li>
      ))}
    </ul>
  );
}

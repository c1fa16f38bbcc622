import type { Rule, StoreListItem } from "../../api/types";

/** The rules of `ids`, from the answer's `rules` (each rule once there), in the order of `ids`. */
export function rulesByIds(ids: readonly string[] | undefined, rules: readonly Rule[]): Rule[] {
  return (ids ?? []).map((id) => rules.find((r) => r.id === id)).filter((r): r is Rule => r !== undefined);
}

/** The rules every store of the answer is under (by id, in the first store's order). */
export function commonRules(stores: readonly Pick<StoreListItem, "rule_ids">[], rules: readonly Rule[]): Rule[] {
  const [first, ...rest] = stores;
  return rulesByIds(
    first?.rule_ids.filter((id) => rest.every((s) => s.rule_ids.includes(id))),
    rules,
  );
}

/** Near the list: the rules that bind every store in view, once, with their source (docs/rules.md). */
export function RulesNote({ stores, rules: all }: { stores: readonly Pick<StoreListItem, "rule_ids">[]; rules: readonly Rule[] }) {
  const rules = commonRules(stores, all);
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

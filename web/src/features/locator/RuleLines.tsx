import { ExternalLink, Info } from "lucide-react";
import { useId, useState } from "react";
import type { Rule } from "../../api/types";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-27" as "Nov 2026". */
export function checkedMonth(date: string): string {
  const [y = 0, m = 0] = date.split("-").map(Number);
  return m >= 1 && m <= 12 ? `${MONTHS[m - 1]} ${y}` : date;
}

/**
 * The rulebook's lines for a store (docs/rules.md): a neutral line per rule with its citation and
 * check date, and an info button that tells where it comes from. Nothing where no rule applies.
 */
export function RuleLines({ rules }: { rules: readonly Rule[] | undefined }) {
  if (!rules?.length) return null;
  return (
    <div className="space-y-1" data-testid="rules">
      {rules.map((r) => (
        <RuleLine key={r.id} rule={r} />
      ))}
    </div>
  );
}

function RuleLine({ rule }: { rule: Rule }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="text-sm text-gray-800">
      <p className="flex items-start gap-1">
        <span>
          {rule.summary} · {rule.citation} · checked {checkedMonth(rule.checked_on)}
        </span>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((v) => !v)}
          className="inline-flex min-h-6 min-w-6 shrink-0 items-center justify-center rounded text-gray-700 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
          <Info aria-hidden="true" className="size-4" />
          <span className="sr-only">About this rule</span>
        </button>
      </p>
      <p id={id} hidden={!open} className="mt-1 rounded-md bg-gray-50 p-2 text-xs text-gray-700">
        What the law of this place says about what its stores sell, from our rulebook, checked against the law&apos;s text. Not legal
        advice.{" "}
        <a href={rule.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-0.5 underline">
          Read the law
          <ExternalLink aria-hidden="true" className="size-3" />
        </a>
      </p>
    </div>
  );
}

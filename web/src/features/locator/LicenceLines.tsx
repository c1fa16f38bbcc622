import { AlertTriangle, ExternalLink, ShieldCheck } from "lucide-react";
import type { PhysicalStore } from "../../api/types";
import { enforcementHistory, licenceLine, licenceStatusOn, saleOrderWarning } from "../../lib/licence";

/**
 * What public registries record about the store (docs/licences.md): its licence, a No-Tobacco-Sale
 * Order in force as a warning, earlier enforcement actions. Nothing where no registry lists it.
 */
export function LicenceLines({ store, now }: { store: PhysicalStore; now: Date }) {
  const line = licenceLine(store.licence, now);
  const warning = saleOrderWarning(store.enforcement, now);
  const history = enforcementHistory(store.enforcement, now);
  if (!line && !warning && history.length === 0) return null;
  const active = !!store.licence && licenceStatusOn(store.licence, now) === "active";
  return (
    <div className="space-y-1 text-sm" data-testid="licence">
      {warning && (
        <p role="note" className="flex items-start gap-1.5 rounded-md bg-amber-50 p-2 font-medium text-amber-900">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {warning}
        </p>
      )}
      {line && (
        <p className={active ? "flex items-start gap-1.5 text-emerald-800" : "flex items-start gap-1.5 text-gray-800"}>
          {active && <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />}
          <span>
            {line}
            {store.licence?.record_url && (
              <>
                {" · "}
                <a href={store.licence.record_url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-0.5 underline">
                  registry record
                  <ExternalLink aria-hidden="true" className="size-3" />
                </a>
              </>
            )}
          </span>
        </p>
      )}
      {history.length > 0 && <p className="text-xs text-gray-600">Enforcement on record: {history.join("; ")}</p>}
    </div>
  );
}

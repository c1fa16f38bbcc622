/**
 * Where no licence registry covers the searched area (the list answer's licence_registry is
 * false), "Licence verified" can keep no store: the list says why instead of an unexplained
 * empty list, and offers the way back (docs/licences.md, "Where no registry covers the area").
 */
export const NO_LICENCE_REGISTRY = "No licence registry covers this area";

/** The list's text in place of "No Results Found" when the licence filter is on where no registry covers. */
export function NoLicenceRegistry({ onShowAll }: { onShowAll: () => void }) {
  return (
    <div className="px-4 py-6 text-center">
      <p className="text-sm text-gray-700">
        Licences are checked against public registries, and none we read lists the stores around here, so no store can show
        &ldquo;Licence verified&rdquo;.
      </p>
      <button type="button" onClick={onShowAll} className="mt-3 text-sm font-medium text-emerald-800 underline">
        Show all stores
      </button>
    </div>
  );
}

import { useState } from "react";
import type { PhysicalStore } from "../../api/types";
import { addressLine, truncateAddress } from "../../lib/address";

/** The address line, cut at 80 characters plus "..." with an expand toggle. */
export function AddressLine({ store }: { store: Pick<PhysicalStore, "country" | "state" | "address"> }) {
  const [expanded, setExpanded] = useState(false);
  const full = addressLine(store);
  const { text, cut } = truncateAddress(full);
  return (
    <p className="text-sm text-gray-800">
      <span>{expanded ? full : text}</span>
      {cut && (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded((v) => !v)}
          className="ml-1 font-medium text-emerald-800 underline"
        >
          {expanded ? "Show less" : "Show more"}
        </button>
      )}
    </p>
  );
}

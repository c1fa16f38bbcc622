import { cn } from "../lib/cn";
import { storeStatus, type StatusFields } from "../lib/status";
import { OpenBadge } from "./OpenBadge";

/**
 * The badge ("Opened"/"Closed", or "Open now" in favourites) and the line beside it ("Closes
 * 9:00 PM", "Closed today · Thanksgiving", ...), in the store's zone at `now` (useMinuteTick).
 */
export function StoreStatus({ store, now, openText = "Opened", className }: { store: StatusFields; now: Date; openText?: string; className?: string }) {
  const status = storeStatus(store, now);
  return (
    <span className={cn("inline-flex flex-wrap items-center gap-2", className)}>
      <OpenBadge open={status.open} openText={openText} />
      {status.line && <span className="text-xs text-gray-700">{status.line}</span>}
    </span>
  );
}

import { cn } from "../lib/cn";
import { closureLine, storeStatus, type StatusFields } from "../lib/status";
import { OpenBadge } from "./OpenBadge";

/**
 * The badge ("Opened"/"Closed", or "Open now" in favourites) and the line beside it ("Closes
 * 9:00 PM", "Closed today · Thanksgiving", ...), in the store's zone at `now` (useMinuteTick).
 * A temporary closure to come reads after them with its note ("Temporarily closed from Dec 3
 * until further notice · Renovation"), and one in force gives the line its note, so the list and
 * favourites tell of it as the store page does (issue #39, M3); `closure={false}` leaves that to
 * the caller (the panel shows it as a notice of its own).
 */
export function StoreStatus({
  store,
  now,
  openText = "Opened",
  closure = true,
  className,
}: {
  store: StatusFields;
  now: Date;
  openText?: string;
  closure?: boolean;
  className?: string;
}) {
  const status = storeStatus(store, now);
  const closed = closure && !store.permanently_closed ? closureLine(store.temporarily_closed, store.time_zone, now) : null;
  // In force, the status line already says "Temporarily closed until ..."; the closure's line is
  // the same words with its note.
  const inForce = closed !== null && status.line.startsWith("Temporarily closed");
  return (
    <span className={cn("inline-flex flex-wrap items-center gap-2", className)}>
      <OpenBadge open={status.open} openText={openText} />
      {(inForce ? closed : status.line) && <span className="text-xs text-gray-700">{inForce ? closed : status.line}</span>}
      {closed && !inForce && <span className="text-xs text-amber-900">{closed}</span>}
    </span>
  );
}

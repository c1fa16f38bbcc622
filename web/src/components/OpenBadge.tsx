import { cn } from "../lib/cn";

/** "Open now"/"Closed" (favourites) or "Opened"/"Closed" (results list) badge. */
export function OpenBadge({ open, openText = "Open now", className }: { open: boolean; openText?: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-block rounded-full px-2 py-0.5 text-xs font-medium",
        open ? "bg-emerald-100 text-emerald-900" : "bg-gray-200 text-gray-800",
        className,
      )}
    >
      {open ? openText : "Closed"}
    </span>
  );
}

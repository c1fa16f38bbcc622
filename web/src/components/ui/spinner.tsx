import { cn } from "../../lib/cn";

/** A loading spinner announced to screen readers as `label`. */
export function Spinner({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={cn("flex items-center gap-2 text-sm text-gray-600", className)}>
      <span
        aria-hidden="true"
        className="inline-block size-5 animate-spin rounded-full border-2 border-gray-300 border-t-emerald-700"
      />
      <span>{label}</span>
    </div>
  );
}

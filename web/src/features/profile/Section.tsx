import { useId, type ReactNode } from "react";
import { Button } from "../../components/ui/button";

/** A profile section: title, the current value, and an Edit/Cancel toggle showing its form. */
export function Section({
  title,
  value,
  editing,
  onToggle,
  children,
}: {
  title: string;
  value: ReactNode;
  editing: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="border-b border-gray-200 py-5">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 id={id} className="text-lg font-semibold text-gray-900">
            {title}
          </h2>
          {!editing && <div className="mt-1 break-words text-gray-700">{value}</div>}
        </div>
        <Button variant="outline" aria-expanded={editing} aria-label={`${editing ? "Cancel" : "Edit"} ${title.toLowerCase()}`} onClick={onToggle}>
          {editing ? "Cancel" : "Edit"}
        </Button>
      </div>
      {editing && <div className="mt-4">{children}</div>}
    </section>
  );
}

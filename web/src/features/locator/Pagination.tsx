import { ChevronLeft, ChevronRight } from "lucide-react";
import { PAGE_SIZE } from "../../lib/constants";
import { cn } from "../../lib/cn";

/** Number of pages for `total` stores. */
export function pageCount(total: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

/** The page clamped to 1..pageCount. */
export function clampPage(page: number, total: number, size = PAGE_SIZE): number {
  return Math.min(Math.max(1, Math.floor(page)), pageCount(total, size));
}

/** 1-based first and last store numbers shown on `page` ("Showing results a-b"). */
export function pageBounds(page: number, total: number, size = PAGE_SIZE): { first: number; last: number } {
  if (total <= 0) return { first: 0, last: 0 };
  const p = clampPage(page, total, size);
  return { first: (p - 1) * size + 1, last: Math.min(p * size, total) };
}

/** Previous / page numbers / Next; rendered only when there are more than 20 stores. */
export function Pagination({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  if (total <= PAGE_SIZE) return null;
  const pages = pageCount(total);
  const current = clampPage(page, total);
  const item = "inline-flex min-w-9 items-center justify-center rounded-md px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-emerald-700";
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-center gap-1 py-3">
      <button type="button" className={cn(item, "hover:bg-gray-100 disabled:opacity-40")} disabled={current <= 1} onClick={() => onPage(current - 1)} aria-label="Previous page">
        <ChevronLeft aria-hidden="true" className="size-4" />
      </button>
      {Array.from({ length: pages }, (_, i) => i + 1).map((p) => (
        <button
          key={p}
          type="button"
          aria-label={`Page ${p}`}
          aria-current={p === current ? "page" : undefined}
          onClick={() => onPage(p)}
          className={cn(item, p === current ? "bg-emerald-700 text-white" : "text-gray-800 hover:bg-gray-100")}
        >
          {p}
        </button>
      ))}
      <button type="button" className={cn(item, "hover:bg-gray-100 disabled:opacity-40")} disabled={current >= pages} onClick={() => onPage(current + 1)} aria-label="Next page">
        <ChevronRight aria-hidden="true" className="size-4" />
      </button>
    </nav>
  );
}

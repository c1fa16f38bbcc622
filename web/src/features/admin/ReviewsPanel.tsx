import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { api, failureText, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Loaded } from "../../components/Loaded";
import { Notice } from "../../components/ui/outcome";
import { useSignedOutOn } from "./unauthorized";

type Queue = components["schemas"]["ReviewQueue"];
type Queued = Queue["reviews"][number];
type Reason = components["schemas"]["ReviewReason"];

/** The review queue's cache key (the signed-out cleanup removes everything under ["admin"]). */
export const reviewQueueKey = ["admin", "reviews"] as const;

const FLAG_LABELS: Record<string, string> = {
  "off-topic": "Off-topic",
  hateful: "Hateful",
  "personal-information": "Personal information",
  "health-claim": "Health claim",
  "conflict-of-interest": "Conflict of interest",
  "sale-to-minor": "Sale to a minor",
};

/**
 * The review queue of /admin: held reviews (why), then flagged ones (the open flags by reason);
 * the moderator removes or keeps each with a reason from the published lists.
 */
export function ReviewsPanel({ onUnauthorized }: { onUnauthorized: () => void }) {
  const queue = useQuery({
    queryKey: reviewQueueKey,
    queryFn: async ({ signal }) => unwrap(await api.GET("/admin/reviews", { credentials: "include", signal })),
    staleTime: 0,
  });
  const [notice, setNotice] = useState("");
  useSignedOutOn([queue.error], onUnauthorized);
  return (
    <section aria-labelledby="review-queue-heading" className="flex flex-col gap-4">
      <h2 id="review-queue-heading" className="text-base font-semibold text-gray-900">
        Review queue
      </h2>
      <Notice notice={notice} />
      <Loaded query={queue} loading="Loading the review queue…" failed="Could not load the review queue">
        {(data) =>
          data.reviews.length === 0 ? (
            <p className="text-gray-700">No held or flagged reviews.</p>
          ) : (
            data.reviews.map((r) => <QueuedReview key={r.id} review={r} removal={data.removal_reasons} keep={data.keep_reasons} onDone={setNotice} />)
          )
        }
      </Loaded>
    </section>
  );
}

function QueuedReview({ review, removal, keep, onDone }: { review: Queued; removal: Reason[]; keep: Reason[]; onDone: (m: string) => void }) {
  const queryClient = useQueryClient();
  const [removeReason, setRemoveReason] = useState(removal[0]?.code ?? "");
  const [keepReason, setKeepReason] = useState(keep[0]?.code ?? "");
  const removeId = useId();
  const keepId = useId();
  const decide = useMutation({
    mutationFn: async (action: "remove" | "keep") => {
      const params = { path: { id: review.id } };
      return action === "remove"
        ? unwrap(await api.POST("/admin/reviews/{id}/remove", { params, body: { reason: removeReason as never }, credentials: "include" }))
        : unwrap(await api.POST("/admin/reviews/{id}/keep", { params, body: { reason: keepReason as never }, credentials: "include" }));
    },
    onSuccess: (_d, action) => {
      onDone(`Review #${review.id} of ${review.store_name}: ${action === "remove" ? "removed" : review.status === "Held" ? "published" : "kept"}.`);
      void queryClient.invalidateQueries({ queryKey: reviewQueueKey });
    },
  });
  const headingId = `queued-review-${review.id}`;
  const flags = Object.entries(review.flags);
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-gray-200 bg-white p-4">
      <h3 id={headingId} className="font-semibold text-gray-900">
        {review.store_name}: {review.rating} of 5 stars by {review.customer.first_name} {review.customer.last_name.charAt(0)}
        {review.customer.last_name ? "." : ""}{" "}
        <span className="text-sm font-normal text-gray-600">
          ({review.status === "Held" ? "held" : `${review.flag_count} ${review.flag_count === 1 ? "flag" : "flags"}`})
        </span>
      </h3>
      <p className="whitespace-pre-line text-gray-800">{review.content}</p>
      {review.status === "Held" && <p className="text-sm text-amber-900">Held: {review.held_reason}</p>}
      {flags.length > 0 && (
        <ul aria-label="Flags" className="flex flex-wrap gap-2 text-sm">
          {flags.map(([reason, n]) => (
            <li key={reason} className="rounded bg-gray-100 px-2 py-0.5">
              {FLAG_LABELS[reason] ?? reason}: {n}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <label htmlFor={removeId} className="flex flex-col gap-1 text-sm text-gray-900">
          Removal reason
          <select id={removeId} value={removeReason} onChange={(e) => setRemoveReason(e.target.value)} className="rounded-md border border-gray-400 px-2 py-1">
            {removal.map((r) => (
              <option key={r.code} value={r.code}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <Button disabled={decide.isPending} onClick={() => decide.mutate("remove")}>
          Remove
        </Button>
        <label htmlFor={keepId} className="flex flex-col gap-1 text-sm text-gray-900">
          Reason to keep
          <select id={keepId} value={keepReason} onChange={(e) => setKeepReason(e.target.value)} className="rounded-md border border-gray-400 px-2 py-1">
            {keep.map((r) => (
              <option key={r.code} value={r.code}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <Button variant="outline" disabled={decide.isPending} onClick={() => decide.mutate("keep")}>
          {review.status === "Held" ? "Publish" : "Keep"}
        </Button>
      </div>
      {decide.isError && <FormError>{failureText(decide.error)}</FormError>}
    </article>
  );
}

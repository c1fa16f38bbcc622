import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, failureText, unwrap } from "../../api/client";
import { reviewPagesOptions } from "../../api/endpoints/store-reviews";
import { storeKeys } from "../../api/keys";
import type { ReviewList } from "../../api/types";
import { Stars } from "../../components/Stars";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";

type Review = ReviewList["reviews"][number];

/** The most characters of a reply (the server's limit). */
const MAX_REPLY = 1000;

const reviewMailKey = ["business", "review-mail"] as const;

/**
 * The store's published reviews in the dashboard, newest first, each with the owner's one public
 * reply (write, edit, delete). An owner cannot hide, edit or reorder a review: nothing here does.
 */
export function StoreReviews({ storeId }: { storeId: number }) {
  const reviews = useInfiniteQuery(reviewPagesOptions(storeId));
  const list = reviews.data?.pages.flatMap((p) => p.reviews) ?? [];
  return (
    <section aria-labelledby={`reviews-${storeId}`} className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4">
      <h2 id={`reviews-${storeId}`} className="text-base font-semibold text-gray-900">
        Reviews
      </h2>
      <ReviewMailSwitch />
      {reviews.isPending ? (
        <p className="text-gray-700">Loading reviews…</p>
      ) : reviews.isError ? (
        <FormError>{`Could not load reviews: ${failureText(reviews.error)}`}</FormError>
      ) : list.length === 0 ? (
        <p className="text-gray-700">This store has no reviews yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-gray-200">
          {list.map((r) => (
            <ReviewWithReply key={r.id} storeId={storeId} review={r} />
          ))}
        </ul>
      )}
      {reviews.hasNextPage && (
        <Button variant="outline" disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()}>
          Show more reviews
        </Button>
      )}
    </section>
  );
}

function ReviewWithReply({ storeId, review }: { storeId: number; review: Review }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(review.reply?.text ?? "");
  const path = { params: { path: { id: storeId, reviewId: review.id } }, credentials: "include" as const };
  const done = () => {
    setEditing(false);
    void queryClient.invalidateQueries({ queryKey: storeKeys.detail(storeId) });
  };
  const save = useMutation({
    mutationFn: async () => unwrap(await api.PUT("/business/stores/{id}/reviews/{reviewId}/reply", { ...path, body: { text } })),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: async () => unwrap(await api.DELETE("/business/stores/{id}/reviews/{reviewId}/reply", path)),
    onSuccess: () => {
      setText("");
      done();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== "") save.mutate();
  };
  const who = `${review.customer.first_name} ${review.customer.last_name.trim().charAt(0).toUpperCase()}`.trim();
  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center gap-2">
        <Stars rating={review.rating} />
        <span className="text-sm font-medium text-gray-900">{who}</span>
        {review.sample && <span className="rounded bg-gray-100 px-2 py-0.5 text-xs text-gray-700">Sample review</span>}
      </div>
      <p className="mt-1 whitespace-pre-line text-gray-800">{review.content}</p>
      {review.reply && !editing && (
        <div className="mt-2 ml-4 border-l-2 border-emerald-700 pl-3">
          <p className="text-sm font-medium text-gray-900">Your public reply</p>
          <p className="text-sm whitespace-pre-line text-gray-800">{review.reply.text}</p>
        </div>
      )}
      {editing ? (
        <form onSubmit={submit} className="mt-2 flex flex-col gap-2">
          <label className="flex flex-col gap-1 text-sm font-medium text-gray-900">
            Public reply
            <textarea
              value={text}
              maxLength={MAX_REPLY}
              rows={3}
              onChange={(e) => setText(e.target.value)}
              className="rounded-md border border-gray-400 px-3 py-2 font-normal text-gray-900"
            />
          </label>
          {save.isError && <FormError>{failureText(save.error)}</FormError>}
          <div className="flex gap-2">
            <Button type="submit" disabled={save.isPending || text.trim() === ""}>
              Publish reply
            </Button>
            <Button variant="outline" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="mt-2 flex gap-2">
          <Button variant="outline" onClick={() => setEditing(true)}>
            {review.reply ? "Edit reply" : "Reply"}
          </Button>
          {review.reply && (
            <Button variant="outline" disabled={remove.isPending} onClick={() => remove.mutate()}>
              Delete reply
            </Button>
          )}
        </div>
      )}
      {remove.isError && <FormError>{failureText(remove.error)}</FormError>}
    </li>
  );
}

/** The new-review mail's switch (as the monthly summary's). */
function ReviewMailSwitch() {
  const queryClient = useQueryClient();
  const mail = useQuery({
    queryKey: reviewMailKey,
    queryFn: async ({ signal }) => unwrap(await api.GET("/business/review-mail", { credentials: "include", signal })).enabled,
  });
  const change = useMutation({
    mutationFn: async (enabled: boolean) => unwrap(await api.PUT("/business/review-mail", { body: { enabled }, credentials: "include" })).enabled,
    onSuccess: (enabled) => queryClient.setQueryData(reviewMailKey, enabled),
  });
  if (mail.data === undefined) return null;
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-2 text-sm text-gray-800">
        <input type="checkbox" checked={mail.data} disabled={change.isPending} onChange={(e) => change.mutate(e.target.checked)} />
        Mail me each new review
      </label>
      {change.isError && <FormError>{`Could not save: ${failureText(change.error)}`}</FormError>}
    </div>
  );
}

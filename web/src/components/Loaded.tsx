import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { failureText } from "../api/client";
import { FormError } from "./ui/field";
import { Spinner } from "./ui/spinner";

interface Props<T> {
  query: UseQueryResult<T>;
  /** The spinner's label while it loads ("Loading claims…"). */
  loading: string;
  /** Said before the reason when it fails ("Could not load claims"). */
  failed: string;
  /** What the data shows once loaded. */
  children: (data: T) => ReactNode;
}

/** A query's screen: a spinner while it loads, the reason when it fails, else what its data shows. */
export function Loaded<T>({ query, loading, failed, children }: Props<T>) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError) return <FormError>{`${failed}: ${failureText(query.error)}`}</FormError>;
  return <>{children(query.data)}</>;
}

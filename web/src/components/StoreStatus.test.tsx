import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useMinuteTick } from "../lib/useMinuteTick";
import { makeStore } from "../test/fixtures";
import { StoreStatus } from "./StoreStatus";

function Ticking() {
  const now = useMinuteTick();
  return <StoreStatus store={makeStore({ workingHours: [{ weekDay: "Monday", startTime: "09:00", endTime: "21:00" }] })} now={now} />;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("StoreStatus with the minute tick", () => {
  it("moves on by itself as the minutes pass, without a refetch", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-23T20:59:30-05:00")); // a Monday in New York
    render(<Ticking />);
    expect(screen.getByText("Opened")).toBeInTheDocument();
    expect(screen.getByText("Closes soon · 9:00 PM")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(30_010);
    }); // 21:00 (the tick lands just after the minute): still open, inclusive to the minute
    expect(screen.getByText("Opened")).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(60_000);
    }); // 21:01
    expect(screen.getByText("Closed")).toBeInTheDocument();
    expect(screen.getByText("Opens Mon 9:00 AM")).toBeInTheDocument();
  });
});

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

describe("StoreStatus and a temporary closure (issue #39, M3)", () => {
  const evening = new Date("2026-12-02T20:00:00-05:00"); // a Wednesday in New York
  const hours = [{ weekDay: "Wednesday", startTime: "09:00", endTime: "21:00" }] as const;

  it("tells of a closure starting tomorrow, with its note, after the status", () => {
    render(<StoreStatus store={makeStore({ workingHours: [...hours], temporarily_closed: { from: "2026-12-03", until: null, note: "Renovation" } })} now={evening} />);
    expect(screen.getByText("Opened")).toBeInTheDocument();
    expect(screen.getByText("Temporarily closed from Dec 3 until further notice · Renovation")).toBeInTheDocument();
  });

  it("gives a closure in force its note, once", () => {
    render(<StoreStatus store={makeStore({ workingHours: [...hours], temporarily_closed: { from: "2026-12-01", until: "2026-12-09", note: "Flood" } })} now={evening} />);
    expect(screen.getByText("Closed")).toBeInTheDocument();
    expect(screen.getByText("Temporarily closed until Dec 9 · Flood")).toBeInTheDocument();
    expect(screen.queryByText("Temporarily closed until Dec 9")).not.toBeInTheDocument();
  });
});

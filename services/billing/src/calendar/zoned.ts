/**
 * A moment as ISO 8601 in a time zone, with that zone's offset at the moment
 * (`2026-11-28T18:40:05+01:00`): how an export shows dates in the seller's zone.
 */
export function isoInTimeZone(moment: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(moment)
      .map((part) => [part.type, part.value]),
  );
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  // The zone's offset: its wall clock read as if UTC, less the moment itself (whole seconds).
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - Math.floor(moment.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, "0");
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, "0");
  return `${local}${sign}${hours}:${minutes}`;
}

/**
 * Rows that came back as JSON (`json_agg` of a table's rows, to read a parent and its children in
 * one statement), with their timestamp columns made Dates again, as pg gives them when the same
 * rows are read directly.
 */
export function rowsFromJson<Row>(rows: unknown, timestamps: readonly (keyof Row & string)[]): Row[] {
  return (rows as Record<string, unknown>[]).map((row) => {
    const revived = { ...row };
    for (const column of timestamps) {
      const value = revived[column];
      if (typeof value === "string") revived[column] = new Date(value);
    }
    return revived as Row;
  });
}

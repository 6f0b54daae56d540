/*
 * How an update's date reads (GitBook's `updates` block), in the reader and in the editor alike. The date is
 * GitBook's Timestamp (a day, or a whole ISO time): read as the day it names in UTC, so a reader west of Greenwich
 * does not see the day before.
 */

const longDay = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' });

/** An update's date as people read it ("May 1, 2024"), or the text as it is when it is not a date. */
export function updateDateText(date: string): string {
  const time = /^\d{4}-\d{2}-\d{2}/.test(date) ? Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date) : NaN;
  return Number.isNaN(time) ? date : longDay.format(time);
}

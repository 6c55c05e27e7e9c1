/** count is a number and the noun that fits it, as a visitor or the owner
 * reads it: "1 photo", "2 photos", "0 photos". many is the plural where
 * adding an s is wrong ("1 city", "3 cities"). The number is written with
 * String, not toLocaleString: the server's JavaScript and the browser
 * must write it the same, or hydration would not match. */
export function count(n: number, one: string, many = one + "s"): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** galleryCount says what a portfolio holds: "1 photo from 1 project",
 * "3 photos and 1 video from 2 projects", "2 videos from 1 project". */
export function galleryCount(photos: number, videos: number, projects: number): string {
  const what = [photos > 0 ? count(photos, "photo") : "", videos > 0 ? count(videos, "video") : ""].filter(Boolean).join(" and ");
  return `${what || count(0, "photo")} from ${count(projects, "project")}`;
}

// exif.mjs writes a photo as a phone takes it: a JPEG with an EXIF block
// that carries where (GPS) and when (DateTimeOriginal) it was taken, so
// the tests can prove the place is read before the metadata is stripped.
import { readFileSync } from "node:fs";

/** withGPS returns the JPEG's bytes with an APP1 EXIF segment right after
 * its start marker: latitude/longitude in degrees (south and west
 * negative) and taken, "YYYY:MM:DD HH:MM:SS". */
export function withGPS(jpeg, lat, lng, taken) {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error("not a JPEG");
  const le = []; // little-endian TIFF ("II")
  const u16 = (v) => [v & 0xff, (v >> 8) & 0xff];
  const u32 = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
  // Layout (offsets from the TIFF header): header 8, IFD0 at 8 with two
  // entries (ExifIFD, GPSInfo), the Exif IFD, the GPS IFD, then data.
  const ifd = (n) => 2 + n * 12 + 4;
  const ifd0 = 8, exifIFD = ifd0 + ifd(2), gpsIFD = exifIFD + ifd(1), data = gpsIFD + ifd(4);
  const dateAt = data, latAt = dateAt + 20, lngAt = latAt + 24;
  const entry = (tag, type, count, value) => [...u16(tag), ...u16(type), ...u32(count), ...value];
  const ascii = (s, n) => { const b = [...Buffer.from(s, "ascii")]; while (b.length < n) b.push(0); return b; };
  const dms = (deg) => {
    const a = Math.abs(deg), d = Math.floor(a), m = Math.floor((a - d) * 60), s = Math.round(((a - d) * 60 - m) * 60 * 10000);
    return [...u32(d), ...u32(1), ...u32(m), ...u32(1), ...u32(s), ...u32(10000)];
  };
  le.push(0x49, 0x49, 0x2a, 0x00, ...u32(ifd0));
  le.push(...u16(2), ...entry(0x8769, 4, 1, u32(exifIFD)), ...entry(0x8825, 4, 1, u32(gpsIFD)), ...u32(0));
  le.push(...u16(1), ...entry(0x9003, 2, 20, u32(dateAt)), ...u32(0));
  le.push(...u16(4),
    ...entry(0x0001, 2, 2, ascii(lat < 0 ? "S" : "N", 4)),
    ...entry(0x0002, 5, 3, u32(latAt)),
    ...entry(0x0003, 2, 2, ascii(lng < 0 ? "W" : "E", 4)),
    ...entry(0x0004, 5, 3, u32(lngAt)),
    ...u32(0));
  le.push(...ascii(taken, 20), ...dms(lat), ...dms(lng));
  const body = Buffer.concat([Buffer.from("Exif\0\0", "binary"), Buffer.from(le)]);
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, ...[(body.length + 2) >> 8, (body.length + 2) & 0xff]]), body]);
  return Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]);
}

/** kitchenAt is the kitchen fixture as if photographed at lat, lng. */
export function kitchenAt(lat, lng, taken = "2026:10:14 09:30:00") {
  return withGPS(readFileSync(new URL("./fixtures/kitchen.jpg", import.meta.url)), lat, lng, taken);
}

/** hasEXIF reports whether a JPEG's bytes still carry an EXIF block. */
export function hasEXIF(bytes) {
  const b = Buffer.from(bytes);
  return b.includes(Buffer.from("Exif\0\0", "binary")) || b.includes(Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08]));
}

-- 075: one phone model (ADR 039). System Settings kept a 'phone' (top
-- bar, footer, contact page, structured data) and an 'emergency_phone'
-- (every call button in 24/7 mode), so changing one half-changed the
-- site. Now 'phone' is the 24/7 line that every call button, tel: link
-- and structured data use, and 'office_phone' is an optional second
-- number shown only on the contact page. Nothing saved is lost: the
-- number the call buttons dialled becomes the 24/7 line, and a
-- different business phone becomes the office number.
INSERT INTO settings (key, value, updated_at)
SELECT 'office_phone', p.value, p.updated_at
FROM settings p JOIN settings e ON e.key = 'emergency_phone'
WHERE p.key = 'phone' AND e.value <> '' AND e.value <> p.value;

INSERT INTO settings (key, value, updated_at)
SELECT 'phone', e.value, e.updated_at FROM settings e
WHERE e.key = 'emergency_phone' AND e.value <> ''
  AND NOT EXISTS (SELECT 1 FROM settings p WHERE p.key = 'phone');

UPDATE settings SET value = (SELECT e.value FROM settings e WHERE e.key = 'emergency_phone')
WHERE key = 'phone'
  AND EXISTS (SELECT 1 FROM settings e WHERE e.key = 'emergency_phone' AND e.value <> '');

DELETE FROM settings WHERE key = 'emergency_phone';

-- Remote alarms became one supplier service per channel (issue 17 item 5). Every company had
-- every channel until now, so each keeps them; the supplier switches channels off from here on.
UPDATE "companies" SET "services" = ARRAY(
  SELECT DISTINCT unnest("services" || ARRAY['service:alarmEmail', 'service:alarmSms', 'service:alarmCall', 'service:alarmWechat', 'service:alarmWhatsapp']::text[])
  ORDER BY 1
);

-- Which service hears a visitor's voice: the operator's switch "every browser through the
-- speech-to-text provider". Off (the default), a browser with its own speech recognition uses it
-- (Chrome sends the audio to Google's service, Safari to Apple's) and only the others stream the
-- microphone through the stt-stream function to the operator's provider; on, every browser does, so
-- no browser vendor's service hears the voice.
--
-- A column of the operator's one settings row (public.system_settings, 20261128004000): only admins
-- read and change it (that migration's policies), each switch by its own column grant; visitors
-- learn the value from the stt-stream function (GET), which reads it with the service role.

alter table public.system_settings
  add column voice_input_via_provider boolean not null default false;

comment on column public.system_settings.voice_input_via_provider is
  'Every browser streams the visitor''s voice to the speech-to-text provider (stt-stream) instead of using its own speech recognition.';

grant update (voice_input_via_provider) on public.system_settings to authenticated;

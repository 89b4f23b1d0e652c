-- A passage starts where a sentence starts. A paragraph longer than a passage is cut into pieces of
-- whole sentences: a sentence that does not fit beside the piece being filled starts the next one,
-- and only a sentence longer than a whole passage is cut between words. Before, the piece was
-- filled word by word up to the maximum, so the next passage could begin inside a sentence
-- ("eine Entkalkertablette in den Wassertank. Das Programm dauert 25 Minuten.") and the offline
-- coach quoted it from there.
--
-- A full stop after an abbreviation ("z. B.", "ca.", "Nr."), a single letter (initials) or a number
-- of one or two digits (an ordinal or a date: "am 3. Oktober", "2. Obergeschoss") ends no sentence
-- here, as it ends none in the coach's sentence splitting (supabase/functions/_shared/sentences.ts).
--
-- Whole definition of private.split_long_unit(), as …_documents.sql wrote it otherwise;
-- private.document_passages() calls it by name and stays as it is.


-- A unit's sentences: split where '.', '!', '?' or '…' (with a closing quote or bracket) is followed
-- by whitespace and an upper-case letter, a digit, an opening quote, a bracket or a dash, unless the
-- '.' closes an abbreviation, a single letter or a number of one or two digits. Whitespace collapsed.
create or replace function private.unit_sentences(unit text)
returns setof text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  part text;
  sentence text := '';
begin
  for part in
    select s from regexp_split_to_table(btrim(regexp_replace(unit, '\s+', ' ', 'g')), '(?<=[.!?…]|[.!?…]["“”»)])\s+(?=[[:upper:][:digit:]"„“‚«»(\[–-])') as s
  loop
    sentence := case when sentence = '' then part else sentence || ' ' || part end;
    -- The '.' of "z.", "ca.", "Dr.", "3." goes on into the next part: no sentence ends there.
    continue when lower(sentence) ~ '(^|[^[:alnum:]])([[:alpha:]]|abs|allg|bspw|bzgl|bzw|ca|dr|evtl|ggf|ggü|hr|fr|inkl|jh|max|mind|mio|mrd|nr|prof|sog|str|tel|vgl|zzgl|[[:digit:]]{1,2})\.$';
    return next sentence;
    sentence := '';
  end loop;
  if sentence <> '' then
    return next sentence;
  end if;
end
$$;

-- A unit longer than max_chars in pieces of whole sentences (as many as fit, a piece ending once
-- it is half full), a sentence longer than max_chars between words, a single "word" longer than
-- that (a URL, a hash) inside itself.
create or replace function private.split_long_unit(unit text, max_chars integer)
returns setof text
language plpgsql
immutable
set search_path = ''
as $$
declare
  sentence text;
  word text;
  piece text := '';
begin
  if char_length(unit) <= max_chars then
    return next unit;
    return;
  end if;
  for sentence in select s from private.unit_sentences(unit) as s loop
    -- A sentence that does not fit beside the piece starts the next piece.
    if piece <> '' and char_length(piece) + 1 + char_length(sentence) > max_chars then
      return next piece;
      piece := '';
    end if;
    if char_length(sentence) <= max_chars then
      piece := case when piece = '' then sentence else piece || ' ' || sentence end;
    else
      -- Longer than a passage: between words, a word longer than that inside itself.
      for word in select w from regexp_split_to_table(sentence, ' ') as w loop
        while char_length(word) > max_chars loop
          if piece <> '' then
            return next piece;
            piece := '';
          end if;
          return next left(word, max_chars);
          word := substr(word, max_chars + 1);
        end loop;
        continue when word = '';
        if piece = '' then
          piece := word;
        elsif char_length(piece) + 1 + char_length(word) <= max_chars then
          piece := piece || ' ' || word;
        else
          return next piece;
          piece := word;
        end if;
      end loop;
    end if;
    -- A sentence ends the piece once the piece is half full; short sentences share one.
    if char_length(piece) >= max_chars / 2 then
      return next piece;
      piece := '';
    end if;
  end loop;
  if piece <> '' then
    return next piece;
  end if;
end
$$;

revoke execute on function private.unit_sentences(text) from public, anon;
grant execute on function private.unit_sentences(text) to authenticated, service_role;

-- The knowledge search: which passages answer a visitor's question, best first.
--
--   public.search_knowledge(query, match_count, previous, query_embedding)
--     1. private.search_terms()        the question's words, weighted, each with what stands for it
--          private.question_words      words that ask rather than name a topic (weight 0)
--          private.stand_ins()         a word no passage has: the slip it is, or its known parts
--          private.term_query()        the word, its synonyms and the compounds ending in it
--          private.synonyms            the German synonym table
--     2. private.lexical_candidates()  passages sharing words with it, scored: the lexical ranking
--     3. private.vector_candidates()   with a question embedding: the nearest passages
--     4. fusion, relevance floor, one passage per near-duplicate, German first, at most five
--
-- Every function reads text through private.german_lexemes(), as the passages were written
-- (…_documents.sql).


-- Words that ask rather than say what about ("Wie lange dauert …", "Gibt es …", "Kann ich …").
-- They still count as found when a passage has them, but weigh nothing.
create table private.question_words (lexeme text primary key);
comment on table private.question_words is
  'Lexemes of words that ask rather than name a topic; the search gives them no weight.';
insert into private.question_words (lexeme)
select distinct v.lexeme
  from unnest(private.german_lexemes(
    'tun tue tust macht machen mache gehen geht gibt gibts hilft helfen helfe hilfreich tipp tipps total ' ||
    'ganz gerade grad eigentlich wirklich einfach genau gut besser beste bestes viel viele oft lange lang ' ||
    'wann warum wieso weshalb welche welcher welches was wie wo ne mal bitte kannst können kann soll ' ||
    'sollte sollen muss musst darf dürfen okay gern gerne sagen sag sagst erklären erklär ' ||
    'bedeutet heißt ding sache sachen leute jemand etwas nun momentan immer ständig dass wer woran merke ' ||
    'merken merk frage fragen info infos insgesamt ungefähr etwa circa bekomme bekommt bekommen kriege ' ||
    'kriegt kriegen brauche braucht brauchen möchte möchten will wollen hätte hätten würde würden ' ||
    'eigentlich überhaupt denn eben halt schon jetzt heute bisschen paar irgendwie irgendwas ' ||
    'erzähl erzählen weißt wissen weiß stimmt richtig klar ja nein hallo hi danke gestern vorgestern übermorgen ' ||
    'sinnvoll nötig notwendig schlimm normal möglich passiert passieren los ' ||
    -- Spoken and typed short forms of function words.
    'nen nem ner is isses nich net wat dat wieviel wieviele son sone fürs ans aufs ums durchs übers beim vom zum zur ins')) as v;
revoke all on private.question_words from public, anon, authenticated;
grant select on private.question_words to authenticated, service_role;


-- Words that set the scene of a question rather than name its topic: times, seasons, the people
-- around the visitor and where they spend the day ("Ich heirate im Sommer", "Meine Frau bekommt
-- im Mai ein Baby", "Ich bin gestresst bei der Arbeit"). When
-- no passage holds them they weigh as any unknown word, not as an unknown noun (see
-- private.search_terms()).
create table private.context_words (lexeme text primary key);
comment on table private.context_words is
  'Lexemes of words that set the scene (times, seasons, people close to the visitor); an unknown one is not taken for the question''s topic.';
insert into private.context_words (lexeme)
select distinct v.lexeme
  from unnest(private.german_lexemes(
    'montag dienstag mittwoch donnerstag freitag samstag sonntag wochenende feiertag feiertage ' ||
    'januar februar märz april mai juni juli august september oktober november dezember ' ||
    'frühling sommer herbst winter morgen mittag nachmittag abend nacht tag tage woche wochen monat monate jahr jahre ' ||
    'frau mann partner partnerin freund freundin mutter vater eltern tochter sohn kinder familie ' ||
    'arbeit job beruf büro arbeitsplatz alltag zuhause')) as v;
revoke all on private.context_words from public, anon, authenticated;
grant select on private.context_words to authenticated, service_role;


-- Synonyms: words a visitor and a document use for the same thing ("heiraten" – "Hochzeit",
-- "beenden" – "abbrechen", "Unterordner" – "rekursiv"). Every word of a group stands for every
-- other; an evidence word (a unit, a weekday) only stands for the others: "teuer" finds "Euro",
-- "Euro" does not find "teuer". Written for this project (German usage in coaching, practices,
-- house rules, privacy notes, price lists, handbooks and software references); no third-party
-- thesaurus data.
create table private.synonyms (
  grp integer not null,
  lexeme text not null,
  evidence_only boolean not null default false,
  primary key (grp, lexeme)
);
create index synonyms_lexeme_idx on private.synonyms (lexeme);
comment on table private.synonyms is
  'German synonym groups as lexemes; a word finds the other words of its groups (evidence words only in that direction).';
revoke all on private.synonyms from public, anon, authenticated;
grant select on private.synonyms to authenticated, service_role;

with groups (grp, words, evidence) as (
  values
    (1, 'preis preise kosten kostet kostest gebühr gebühren honorar tarif betrag teuer günstig billig bezahlen zahlt entgelt', 'euro'),
    (2, 'ermäßigung ermäßigt rabatt nachlass vergünstigung vergünstigt reduziert', ''),
    (3, 'termin termine sitzung buchen buchung gebucht reservieren reservierung anmeldung verabredung', ''),
    (4, 'absagen absage stornieren stornierung storno abmelden abmeldung ausfallen verschieben rücktritt zurücktreten canceln', ''),
    (5, 'öffnungszeiten geöffnet öffnen offen aufhaben sprechzeiten erreichbar erreichbarkeit', ''),
    (6, 'wochenende', 'samstag sonntag samstags sonntags'),
    (7, 'dauer dauert dauern', 'minuten stunden'),
    (8, 'urlaub urlaubstage freistellung freigestellt sonderurlaub erholungsurlaub arbeitsbefreiung frei freie', ''),
    (9, 'heiraten heirate heiratet hochzeit eheschließung trauung standesamt', ''),
    (10, 'umzug umziehen wohnungswechsel', ''),
    (11, 'krank krankheit erkrankt erkrankung krankmeldung krankschreibung arbeitsunfähig arbeitsunfähigkeit attest', ''),
    (12, 'kind kinder nachwuchs', ''),
    (13, 'geburt entbindung niederkunft baby säugling neugeborenes', ''),
    (14, 'tod todesfall sterbefall gestorben verstorben beerdigung bestattung trauerfall', ''),
    (15, 'homeoffice zuhause telearbeit remote mobil', ''),
    (16, 'fahrtkosten reisekosten kilometergeld kilometerpauschale fahrtkostenerstattung spesen', 'kilometer'),
    (17, 'gehalt lohn vergütung bezahlung', ''),
    (18, 'überstunden mehrarbeit', ''),
    (19, 'kündigung kündigen kündigungsfrist', ''),
    (20, 'daten informationen angaben', ''),
    (21, 'löschen löschung gelöscht entfernen vernichten vernichtung', ''),
    (22, 'speichern speicherung gespeichert aufbewahren aufbewahrung aufbewahrt aufheben aufgehoben archivieren', ''),
    (23, 'weitergeben weitergabe übermitteln übermittlung weiterleiten', ''),
    (24, 'einwilligung einwilligen zustimmung zustimmen erlaubnis einverständnis', ''),
    (25, 'widerruf widerrufen widerspruch widersprechen', ''),
    (26, 'rauchen raucher rauchverbot zigarette zigaretten', ''),
    (27, 'haustier haustiere hund hunde tier tiere katze', ''),
    (28, 'lärm laut ruhezeit ruhezeiten nachtruhe mittagsruhe', ''),
    (29, 'parken parkplatz parkplätze stellplatz parkhaus', ''),
    (30, 'müll abfall abfälle mülltrennung', ''),
    (31, 'beenden beende abbrechen stoppen verlassen rauskommen raus aussteigen quit exit', ''),
    (32, 'ordner verzeichnis verzeichnisse directory', ''),
    (33, 'unterordner unterverzeichnis unterverzeichnisse rekursiv', ''),
    (34, 'datei dateien file files', ''),
    (35, 'starten start ausführen aufrufen aufruf', ''),
    (36, 'installieren installation einrichten einrichtung', ''),
    (37, 'fehler fehlermeldung fehlercode störung problem error', ''),
    (38, 'einstellung einstellungen konfiguration konfigurieren option optionen parameter', ''),
    (39, 'standard standardwert voreinstellung voreingestellt default', ''),
    (40, 'anzeigen zeigen ausgeben ausgabe auflisten', ''),
    (41, 'version versionsnummer', ''),
    (42, 'anleitung handbuch dokumentation', ''),
    (43, 'passwort kennwort', ''),
    (44, 'einloggen login anmelden', ''),
    (45, 'herunterladen download', ''),
    (46, 'aktualisieren aktualisierung update', ''),
    (47, 'sicherung backup sicherungskopie', ''),
    (48, 'wiederherstellen wiederherstellung restore', ''),
    (49, 'ausführlich detailliert verbose', ''),
    (50, 'zurücksetzen reset', ''),
    (51, 'stress gestresst überlastet überlastung überfordert überforderung belastung', ''),
    (52, 'schlafen schlaf einschlafen durchschlafen ausschlafen schlaflos schlaflosigkeit', ''),
    (53, 'aufschieben prokrastination prokrastinieren aufschieberitis', ''),
    (54, 'motivation motiviert antrieb', ''),
    (55, 'angst ängste sorge sorgen panik nervös nervosität', ''),
    (56, 'trauer trauern kummer verlust', ''),
    (57, 'streit konflikt konflikte auseinandersetzung zoff', ''),
    (58, 'chef chefin vorgesetzte vorgesetzter führungskraft', ''),
    (59, 'kollege kollegin kollegen mitarbeiter mitarbeiterin mitarbeitende', ''),
    (60, 'pause pausen auszeit unterbrechung', ''),
    (61, 'selbstwert selbstwertgefühl selbstbewusstsein selbstvertrauen', ''),
    (62, 'arzt ärztin doktor mediziner', ''),
    (63, 'telefon telefonisch anrufen anruf telefonnummer', ''),
    (64, 'email e-mail mail', ''),
    (65, 'video videositzung videocall videotermin online', ''),
    (66, 'kontakt ansprechpartner ansprechpartnerin zuständig', ''),
    (67, 'zahlung überweisung rechnung überweisen', ''),
    (68, 'gutschein gutscheine geschenk', ''),
    (69, 'voraussetzung voraussetzungen bedingung bedingungen anforderung anforderungen', ''),
    (70, 'adresse anschrift', ''),
    (71, 'erstattung erstatten rückerstattung zurückerstatten', ''),
    (72, 'kurs kurse seminar seminare workshop workshops', ''),
    (73, 'raum räume zimmer saal', ''),
    (74, 'gruppe gruppen teilnehmer teilnehmende teilnehmerin', ''),
    (75, 'frist fristen deadline spätestens', ''),
    (76, 'testen test probelauf probieren ausprobieren simulieren simulation trockenlauf', ''),
    (77, 'kaputt defekt reparatur reparieren beschädigt schaden', ''),
    (78, 'rollstuhl rollstuhlgerecht barrierefrei barrierefreiheit rollator', 'aufzug stufenlos'),
    (79, 'aufzeichnen aufzeichnung aufgezeichnet aufnehmen aufnahme mitschneiden mitschnitt', ''),
    (80, 'spesen tagegeld verpflegungspauschale verpflegungsmehraufwand verpflegung', ''),
    (81, 'zug bahn bahnfahrt zugfahrt bahnticket', ''),
    (82, 'zehnerkarte 10er-karte zehnerblock mehrfachkarte', 'paket'),
    (83, 'maschine gerät automat vollautomat kaffeevollautomat kaffeemaschine kaffeeautomat espressomaschine', ''),
    (84, 'temperatur lauwarm warm heiß kalt', ''),
    (85, 'student studenten studentin studierende studierender', ''),
    (86, 'zuschuss zuschüsse zulage beihilfe pauschale kostenübernahme', ''),
    (87, 'erscheinen nichterscheinen auftauchen fernbleiben', '')
),
words as (
  select g.grp, w, false as evidence_only from groups g, regexp_split_to_table(g.words, ' ') as w
  union all
  select g.grp, w, true from groups g, regexp_split_to_table(g.evidence, ' ') as w where g.evidence <> ''
)
insert into private.synonyms (grp, lexeme, evidence_only)
select distinct on (w.grp, l.lexeme) w.grp, l.lexeme, w.evidence_only
  from words w
  -- A word's lexeme as the passages have it (a compound like "e-mail" gives its whole form).
  cross join lateral (
    select v.lexeme from unnest(private.german_lexemes(w.w)) as v order by char_length(v.lexeme) desc limit 1
  ) l
 order by w.grp, l.lexeme, w.evidence_only;


-- A term of a question as the search uses it.
create type private.search_term as (
  -- The question's word, stemmed; what the admin's preview shows.
  lexeme text,
  -- Order: the question's words first, in their order, then the previous turn's.
  position integer,
  from_previous boolean,
  -- Written with a capital letter inside its sentence: a German noun, what a question is about.
  named boolean,
  -- What a passage must hold to count as having the word (private.term_query()).
  query tsquery,
  -- How many passages hold it, at most (the weight is read from this).
  passages integer,
  -- ln(1 + (N - n + 0.5) / (n + 0.5)) for n of N passages (BM25's idf); 0 for a question word.
  weight real
);


-- The words that stand for a word no passage holds: the word of the knowledge base or of the
-- synonym table it is a slip of (words of seven letters or more: one letter changed, two from nine letters on, the first three
-- letters the same; shorter words are too often another word: "gewonnen" – "gewohnt"), else the two parts of a compound when passages have both ("Urlaubtage": urlaub, tag). A
-- compound with an unknown part stays unknown: "Mindestlohn" is not "mindestens", "Paarberatung"
-- is no kind of "Beratung" the knowledge base knows. Returns the word itself when passages hold it
-- (also as the beginning of a longer word: "Arbeit" – "Arbeitsplatz") or nothing stands in for it.
create or replace function private.stand_ins(word text)
returns text[]
language plpgsql
stable
set search_path = ''
as $$
declare
  typo_edits constant integer := 2;
  repaired text;
  modifier text;
  head text;
begin
  if exists (select from private.knowledge_terms k where k.lexeme = word)
     or (char_length(word) >= 4 and word !~ '[^[:alpha:]]'
         and exists (select from private.knowledge_terms k where k.lexeme ~>=~ word and k.lexeme ~<~ (word || chr(65535)))) then
    return array[word];
  end if;
  if char_length(word) < 5 or word ~ '[^[:alpha:]]' then
    return array[word];
  end if;

  if char_length(word) >= 7 then
    -- The words of the knowledge base and of the synonym table (whose synonyms passages may have).
    select v.lexeme into repaired
      from (
        select k.lexeme, k.passages from private.knowledge_terms k
         where k.lexeme ~>=~ left(word, 3) and k.lexeme ~<~ (left(word, 3) || chr(65535))
        union all
        select s.lexeme, 0 from private.synonyms s where left(s.lexeme, 3) = left(word, 3) and not s.evidence_only
      ) v
     where char_length(v.lexeme) between char_length(word) - typo_edits and char_length(word) + typo_edits
       and extensions.levenshtein_less_equal(v.lexeme, word, typo_edits)
           <= case when char_length(word) >= 9 then typo_edits else 1 end
     order by extensions.levenshtein(v.lexeme, word), abs(char_length(v.lexeme) - char_length(word)), v.passages desc, v.lexeme
     limit 1;
    if repaired is not null then
      return array[repaired];
    end if;
  end if;

  -- A compound of two words the knowledge base has: the longest of its words (five letters or
  -- more) the compound begins with, and the longest (three or more) it ends with, not overlapping,
  -- with at most six letters between them (an ending and a joint: "Stressbewält|igungs|kurs").
  select k.lexeme into modifier
    from generate_series(char_length(word) - 3, 5, -1) as n
    join private.knowledge_terms k on k.lexeme = left(word, n.n)
   order by n.n desc
   limit 1;
  if modifier is not null then
    select k.lexeme into head
      from generate_series(char_length(word) - char_length(modifier), 3, -1) as n
      join private.knowledge_terms k on k.lexeme = right(word, n.n)
     where char_length(word) - char_length(modifier) - n.n <= 6
     order by n.n desc
     limit 1;
    if head is not null then
      return array[modifier, head];
    end if;
  end if;
  return array[word];
end
$$;


-- What a passage must hold to have a word: the word (as the beginning of a longer word too, for
-- words of five letters or more: "Pause" – "Pausenraum"), its synonyms likewise, and the
-- knowledge base's compounds ending in the word or a synonym ("Urlaub" – "Erholungsurlaub"; the
-- six held by most passages, for words of five letters or more). With how many passages hold any
-- of these, at most (a passage with two of them counts twice).
create or replace function private.term_query(word text, out query tsquery, out passages integer)
language sql
stable
set search_path = ''
as $$
  with forms as (
    select word as form
    union
    select s2.lexeme
      from private.synonyms s1
      join private.synonyms s2 on s2.grp = s1.grp and s2.lexeme <> s1.lexeme
     where s1.lexeme = word and not s1.evidence_only
  ),
  quoted as (
    select f.form,
           format('''%s''', replace(replace(f.form, '\', '\\'), '''', '''''')) as literal,
           char_length(f.form) >= 4 and f.form !~ '[^[:alpha:]]' as as_prefix
      from forms f
  ),
  heads as (
    -- Compounds ending in the word itself (four letters or more: "Tank" – "Wassertank"; shorter
    -- ones end too many unrelated words: "Tag" – "Vertrag"). Not those of its synonyms: they end
    -- unrelated words as easily ("Urlaub" – "frei" – "gewaltfrei"), and the synonym table names
    -- the compounds that matter ("Sonderurlaub").
    select h.lexeme, h.passages
      from quoted q
      cross join lateral (
        select k.lexeme, k.passages
          from private.knowledge_terms k
         where q.form = word and char_length(q.form) >= 4 and q.form !~ '[^[:alpha:]]'
           and k.reversed ~>=~ reverse(q.form) and k.reversed ~<~ (reverse(q.form) || chr(65535))
           -- A compound: at least three letters before the form ("Wasser|tank", not "G|reifen").
           and char_length(k.lexeme) >= char_length(q.form) + 3
           and not (q.as_prefix and left(k.lexeme, char_length(q.form)) = q.form)
         order by k.passages desc, k.lexeme
         limit 6
      ) h
  ),
  held as (
    select k.lexeme, k.passages
      from quoted q
      join private.knowledge_terms k
        on k.lexeme ~>=~ q.form and k.lexeme ~<~ (q.form || case when q.as_prefix then chr(65535) else chr(1) end)
    union
    select h.lexeme, h.passages from heads h
  )
  select (
           select string_agg(q.literal || case when q.as_prefix then ':*' else '' end, ' | ') from quoted q
         )::tsquery
         || coalesce((select string_agg(format('''%s''', replace(replace(h.lexeme, '\', '\\'), '''', '''''')), ' | ') from heads h)::tsquery,
                     ''::tsquery),
         coalesce((select sum(held.passages) from held), 0)::integer
$$;


-- The question's terms: its words (and the previous user turn's, for a follow-up) through
-- private.german_lexemes(), at most 20 of them, each replaced by what stands in for it
-- (private.stand_ins(): a slip by the word meant, a compound by its known parts), expanded
-- (private.term_query()) and weighted by how rare it is among all passages (BM25's idf).
--
-- A word no passage holds says the question may be about something the knowledge base does not
-- know. It weighs as much as a word held by a single passage, times unknown_named when it is
-- written with a capital letter inside its sentence (a German noun: "Wie wird das Wetter
-- morgen?", "Was kostet ein Flug nach Mallorca?") and times unknown_other for any other word
-- (a verb or an adjective put differently from the document: "Wie trenne ich Arbeit und
-- Freizeit?"). A question typed all in lower case says nothing about its nouns: unknown_other.
-- A word that sets the scene (private.context_words: "bei der Arbeit", "im Sommer") weighs
-- scene_share of what it would: it places the question, it does not say what it asks.
create or replace function private.search_terms(question text, previous text default null)
returns setof private.search_term
language sql
stable
set search_path = ''
as $$
  with settings (unknown_named, unknown_other, scene_share) as (
    values (3.0::real, 1.0::real, 0.5::real)
  ),
  raw as (
    select v.lexeme, v.positions[1] as position, false as from_previous
      from unnest(private.german_lexemes(left(coalesce(question, ''), 2000))) as v
    union all
    select v.lexeme, 100000 + v.positions[1], true
      from unnest(private.german_lexemes(left(coalesce(previous, ''), 2000))) as v
  ),
  capitalised as (
    -- Words with a capital letter that does not start a sentence.
    select v.lexeme
      from unnest(private.german_lexemes((
        select string_agg(m[1], ' ')
          from regexp_matches(left(coalesce(question, ''), 2000) || ' ' || left(coalesce(previous, ''), 2000),
                              '(?<=[^.!?:\s][\s„"(]{1,3})([[:upper:]][^\s.,!?;:“")]*)', 'g') as m
      ))) as v
  ),
  words as (
    select distinct on (r.lexeme) r.lexeme, r.position, r.from_previous
      from raw r
     order by r.lexeme, r.from_previous, r.position
  ),
  limited as (
    select w.*,
           exists (select from private.question_words q where q.lexeme = w.lexeme) as asks,
           exists (select from private.context_words x where x.lexeme = w.lexeme) as scene,
           exists (select from capitalised c where c.lexeme = w.lexeme)
             and not exists (select from private.context_words x where x.lexeme = w.lexeme) as named
      from words w
     order by w.from_previous, w.position
     limit 20
  ),
  stood as (
    -- Question words are taken as they are; every other word through its stand-ins.
    select distinct on (f.form) f.form, l.position, l.from_previous, l.asks, l.scene, l.named
      from limited l
      cross join lateral unnest(case when l.asks then array[l.lexeme] else private.stand_ins(l.lexeme) end) as f (form)
     order by f.form, l.from_previous, l.position
  ),
  stats as (
    select greatest(coalesce((select s.passages from private.knowledge_stats s), 0), 1)::real as total
  )
  select st.form, st.position, st.from_previous, st.named, t.query,
         least(t.passages, n.total::integer),
         case when st.asks then 0::real
              else (ln(1 + (n.total - greatest(least(t.passages, n.total), 1) + 0.5) / (greatest(least(t.passages, n.total), 1) + 0.5))
                    * case when st.scene then x.scene_share else 1 end
                    * case when t.passages > 0 then 1 when st.named then x.unknown_named else x.unknown_other end)::real
         end
    from stood st
    cross join lateral private.term_query(st.form) as t
    cross join stats n
    cross join settings x
   order by st.from_previous, st.position, st.form
$$;


-- Passages of COMPLETED documents that share informative words with the question, scored: the
-- lexical ranking, in one place.
--   score       the weighted share of the question's terms the passage holds (0..1). A term only
--               the document's title holds counts half. A follow-up's previous turn weighs half,
--               so the passage that goes on with the conversation ranks first.
--   standalone  the same without the previous turn: a passage that answers the new question on
--               its own passes the floor too, when the visitor changed the subject.
--   density     ts_rank_cd's cover density of the candidate terms, for ties.
--   language    the language of the passage's document.
--   matched     the question's terms the passage holds, as the admin's preview shows them.
-- Ranking every passage that shares one common word is what makes a search slow, so only a set
-- that cannot miss a passage the floor would let through is ranked: when the common terms (in
-- more than 200 passages) weigh less than the floor, the passages with a rarer term; else those
-- with all the question's terms when there are enough of them, else every passage with a term;
-- at most 100 of them, in storage order.
create or replace function private.lexical_candidates(terms private.search_term[], wanted integer, floor_score real)
returns table (chunk_id bigint, language text, score real, standalone real, density real, matched text[])
language plpgsql
stable
set search_path = ''
-- The candidate checks use LIMIT; without statistics for a term the planner may bet on a
-- sequential scan ending early, which reads the whole table when the term is rare.
set enable_seqscan = off
as $$
declare
  common_passages constant integer := 200;
  rank_limit constant integer := 100;
  total real;
  question_total real;
  any_term tsquery;
  rare_terms tsquery;
  all_terms tsquery;
  common_share real;
  candidates tsquery;
  found integer;
begin
  select coalesce(sum(case when t.from_previous then 0.5 * t.weight else t.weight end), 0),
         coalesce(sum(t.weight) filter (where not t.from_previous), 0)
    into total, question_total
    from unnest(terms) as t;
  if total <= 0 then
    return;
  end if;

  -- The common terms' share of the weight, by the score and by the standalone score: the larger.
  select string_agg(t.query::text, ' | ')::tsquery,
         string_agg(t.query::text, ' | ') filter (where t.passages <= common_passages)::tsquery,
         string_agg(format('(%s)', t.query::text), ' & ') filter (where not t.from_previous)::tsquery,
         greatest(
           coalesce(sum(case when t.from_previous then 0.5 * t.weight else t.weight end)
                      filter (where t.passages > common_passages), 0) / total,
           case when question_total > 0
                then coalesce(sum(t.weight) filter (where t.passages > common_passages and not t.from_previous), 0) / question_total
                else 0 end
         )
    into any_term, rare_terms, all_terms, common_share
    from unnest(terms) as t
   where t.weight > 0;

  candidates := any_term;
  if common_share < floor_score and rare_terms is not null then
    candidates := rare_terms;
  elsif all_terms is not null then
    select count(*) into found
      from (
        select 1
          from public.document_chunks c
          join public.documents d on d.id = c.document_id
         where c.fts @@ all_terms and d.status = 'COMPLETED'
         limit wanted
      ) enough;
    if found >= wanted then
      candidates := all_terms;
    end if;
  end if;

  return query
    with candidate as (
      select c0.id, c0.fts, d0.title_fts, d0.language
        from public.document_chunks c0
        join public.documents d0 on d0.id = c0.document_id
       where c0.fts @@ candidates
         and d0.status = 'COMPLETED'
       limit rank_limit
    ),
    credited as (
      select c.id, t.lexeme, t.position, t.from_previous, t.weight,
             case when c.fts @@ t.query then 1.0
                  when c.title_fts @@ t.query then 0.5
                  else 0 end as credit
        from candidate c
        cross join unnest(terms) as t
       where t.weight > 0
    ),
    summed as (
      select x.id,
             coalesce(sum(x.weight * x.credit) filter (where not x.from_previous), 0) as question_found,
             coalesce(sum(x.weight * x.credit) filter (where x.from_previous), 0) as previous_found,
             array_agg(x.lexeme order by x.from_previous, x.position) filter (where x.credit = 1 and x.weight > 0) as matched
        from credited x
       group by x.id
    )
    select c.id,
           c.language,
           ((m.question_found + 0.5 * m.previous_found) / total)::real,
           (case when question_total > 0 then m.question_found / question_total else 0 end)::real,
           ts_rank_cd(c.fts, candidates, 1 | 32),
           coalesce(m.matched, '{}')
      from candidate c
      join summed m on m.id = c.id;
end
$$;


-- The passages of COMPLETED documents nearest to the question's embedding (HNSW index, cosine
-- distance), most similar first, with their cosine similarity; none without an embedding.
create or replace function private.vector_candidates(query_embedding extensions.vector, nearest integer)
returns table (chunk_id bigint, language text, similarity real)
language plpgsql
stable
set search_path = ''
as $$
begin
  -- Without an embedding there is nothing to compare (and the index is not walked at all).
  if query_embedding is null then
    return;
  end if;
  return query
    select n.id, d.language, n.similarity
      from (
        select c.id, c.document_id,
               (1 - (c.embedding operator(extensions.<=>) query_embedding))::real as similarity
          from public.document_chunks c
         where c.embedding is not null
         order by c.embedding operator(extensions.<=>) query_embedding
         limit nearest
      ) n
      join public.documents d on d.id = n.document_id
     where d.status = 'COMPLETED'
     order by n.similarity desc, n.id;
end
$$;


-- What in a passage answers to the question, for the offline coach to find the sentence, list
-- entry or table row that holds it: {"total": the question's weight, "asked": how many weighted
-- terms the latest question has itself, "terms": [{"term", "weight", "previous", "words": the
-- passage's lexemes that count as the term}]}. A follow-up's previous turn at half weight, as the
-- score counts it.
create or replace function private.passage_evidence(fts tsvector, terms private.search_term[])
returns jsonb
language sql
immutable
parallel safe
set search_path = ''
as $$
  select jsonb_build_object(
    'total', coalesce((select sum(case when t.from_previous then 0.5 * t.weight else t.weight end) from unnest(terms) as t), 0),
    'asked', (select count(*) from unnest(terms) as t where t.weight > 0 and not t.from_previous),
    'terms', coalesce((
      select jsonb_agg(jsonb_build_object(
               'term', t.lexeme,
               'weight', case when t.from_previous then 0.5 * t.weight else t.weight end,
               'previous', t.from_previous,
               'words', (select jsonb_agg(w.lexeme order by w.lexeme)
                           from unnest(fts) as w
                          where array_to_tsvector(array[w.lexeme]) @@ t.query))
             order by t.from_previous, t.position)
        from unnest(terms) as t
       where t.weight > 0 and fts @@ t.query
    ), '[]'::jsonb)
  )
$$;


-- Passages of COMPLETED documents that answer a German question, best first, at most five.
--
--   * Terms (private.search_terms()): the question's words stemmed, question words weighing
--     nothing, slips and compounds stood in for, synonyms and compounds matched, each weighted by
--     how rare it is; a follow-up with the previous user turn (`previous`) at half weight.
--   * Lexical ranking (private.lexical_candidates()): the weighted share
--     of the terms a passage holds. Only passages at or above the relevance floor (0.3) count:
--     sharing one common word with a question of several is not an answer.
--   * With query_embedding (the coach embeds the question when OPENAI_API_KEY is set), the 20
--     passages nearest to it (private.vector_candidates()) join by reciprocal rank fusion
--     (1 / (60 + rank) from each list); a passage only the embedding found needs a cosine
--     similarity of at least 0.45 (a starting value for OpenAI's text-embedding-3-small, where
--     unrelated German texts score about 0.1-0.25). rank is then the better of the score and that
--     similarity.
--   * Near-duplicates (the same heading and text after collapsing case and whitespace) come once,
--     from the most recently uploaded document; passages of documents in another language than
--     German only when no German passage passes.
--   * Ties: cover density, then document id and passage ordinal.
-- matched_terms lists the question's terms the passage holds (the admin's preview shows them);
-- evidence (private.passage_evidence()) which of the passage's words count for which term.
--
-- Runs as the caller: admins and the service role see all COMPLETED passages; callers that row
-- level security hides the passages from get no rows.
create or replace function public.search_knowledge(
  query text,
  match_count integer default 5,
  previous text default null,
  query_embedding extensions.vector default null
)
returns table (
  document_id uuid,
  document_title text,
  chunk_ordinal integer,
  heading text,
  content text,
  rank real,
  matched_terms text[],
  language text,
  evidence jsonb
)
language plpgsql
stable
set search_path = ''
set enable_seqscan = off
as $$
#variable_conflict use_column
declare
  wanted constant integer := greatest(1, least(coalesce(match_count, 5), 5));
  floor_score constant real := 0.3;
  nearest constant integer := 20;
  semantic_floor constant real := 0.45;
  rrf_k constant integer := 60;
  terms private.search_term[];
begin
  terms := array(select t from private.search_terms(query, previous) as t);
  if query_embedding is null and not exists (select from unnest(terms) as t where t.weight > 0) then
    return;
  end if;

  return query
    with lexical as (
      select l.*, row_number() over (order by l.score desc, l.density desc, l.chunk_id) as lexical_rank
        from private.lexical_candidates(terms, wanted, floor_score) as l
       where greatest(l.score, l.standalone) >= floor_score
    ),
    semantic as (
      select v.*, row_number() over (order by v.similarity desc, v.chunk_id) as semantic_rank
        from private.vector_candidates(query_embedding, nearest) as v
       where v.similarity >= semantic_floor
    ),
    fused as (
      select coalesce(l.chunk_id, s.chunk_id) as chunk_id,
             coalesce(l.language, s.language) as language,
             greatest(coalesce(l.score, 0), coalesce(s.similarity, 0))::real as score,
             coalesce(l.density, 0) as density,
             coalesce(l.matched, '{}') as matched,
             coalesce(1.0 / (rrf_k + l.lexical_rank), 0) + coalesce(1.0 / (rrf_k + s.semantic_rank), 0) as fusion
        from lexical l
        full join semantic s on s.chunk_id = l.chunk_id
    ),
    best as (
      -- German passages first (another language only when no German passage passes); only the
      -- best can end up among the five, near-duplicates included.
      select f.*
        from (select f0.*, bool_or(f0.language = 'de') over () as any_german from fused f0) f
       where f.language = 'de' or not f.any_german
       order by f.fusion desc, f.score desc, f.density desc, f.chunk_id
       limit 4 * wanted
    ),
    unique_passages as (
      select distinct on (u.fingerprint) u.*
        from (
          select b.*, c.document_id, d.title, c.ordinal, c.heading, c.content, c.fts, d.created_at,
                 md5(lower(regexp_replace(c.heading || E'\n' || c.content, '\s+', ' ', 'g'))) as fingerprint
            from best b
            join public.document_chunks c on c.id = b.chunk_id
            join public.documents d on d.id = c.document_id
        ) u
       order by u.fingerprint, u.fusion desc, u.created_at desc, u.document_id, u.ordinal
    ),
    chosen as (
      select u.*
        from unique_passages u
       order by u.fusion desc, u.score desc, u.density desc, u.document_id, u.ordinal
       limit wanted
    )
    select c.document_id, c.title, c.ordinal, c.heading, c.content, c.score, c.matched, c.language,
           private.passage_evidence(c.fts, terms)
      from chosen c
     order by c.fusion desc, c.score desc, c.density desc, c.document_id, c.ordinal;
end
$$;

comment on function public.search_knowledge(text, integer, text, extensions.vector) is
  'Passages of COMPLETED documents that answer a German question (weighted share of its terms at or above 0.3; slips, compounds and synonyms matched; fused with the passages nearest to query_embedding when given), best first; at most match_count (1..5, default 5). previous: the previous user turn for follow-ups.';

revoke execute on function private.stand_ins(text), private.term_query(text), private.search_terms(text, text),
  private.lexical_candidates(private.search_term[], integer, real),
  private.vector_candidates(extensions.vector, integer),
  private.passage_evidence(tsvector, private.search_term[]) from public, anon;
grant execute on function private.stand_ins(text), private.term_query(text), private.search_terms(text, text),
  private.lexical_candidates(private.search_term[], integer, real),
  private.vector_candidates(extensions.vector, integer),
  private.passage_evidence(tsvector, private.search_term[]) to authenticated, service_role;

-- Visitors reach the knowledge only through the coach function (service role); the admin search
-- box calls it signed in. anon may not call it at all.
revoke execute on function public.search_knowledge(text, integer, text, extensions.vector) from public, anon;
grant execute on function public.search_knowledge(text, integer, text, extensions.vector) to authenticated, service_role;

-- People documents gain identity verification: each PSC company entry and each appointment carries
-- the block as filed (people-source.ts). The index is built again in full on the next run (an empty
-- index is always built in full), so that no person is shown without it.
TRUNCATE people_search;

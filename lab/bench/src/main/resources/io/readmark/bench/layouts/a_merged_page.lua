-- a_merged_page.lua (layout A, read-only): the page across authors (a_lib.lua's a_merged_page).
-- KEYS[1] z  KEYS[2] h
-- ARGV[1] entries wanted (page size + 1)  ARGV[2], ARGV[3] (after a cursor only) its score and member
return a_merged_page(KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[3])

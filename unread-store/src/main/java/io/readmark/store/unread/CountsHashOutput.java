package io.readmark.store.unread;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The reply of {@code HGETALL} of a user's {@code h}, parsed as it is decoded: alternating field and value, an author's
 * value being its records ({@link EntryRecord#BYTES} each, so their count is its length over that), the others total,
 * seen, notices and v. The counts read is the most frequent request: one plain command spares Redis a script, and
 * parsing as it is decoded spares the view API a string per field and value, a hash map, and the parsing after. A
 * field that is not a decimal number, a value of total, seen, notices or v that is not one, or records of a length
 * that is not a whole number of records fail the read in {@link Fields#counts(long)}, as {@link Long#parseLong} would have.
 * During an upgrade it also parses the counts hash of the release before h ({@link #previousLayout()}), the same but
 * for an author's value, which was its count in decimal.
 */
final class CountsHashOutput extends CommandOutput<String, String, CountsHashOutput.Fields> {

    private static final byte[] TOTAL = bytes("total"), SEEN = bytes("seen"), NOTICES = bytes("notices"), VERSION = bytes("v");

    /** The fields of one reply: total, seen, notices and the version v, then one count per author, in the hash's order. */
    static final class Fields {
        private long total, seen, notices, version;
        private long[] authorIds = new long[0];
        private long[] counts = new long[0];
        private int authors;
        private String malformed;

        /**
         * The counts of {@code userId}; counts.seen are the unread entries at or before the seen watermark
         * (counters.lua), the others are unseen.
         * @throws NumberFormatException when a field or value was not a decimal number
         */
        UnreadCounts counts(long userId) {
            if (malformed != null) throw new NumberFormatException("counts hash of user " + userId + ": " + malformed);
            return new UnreadCounts(userId, total, total - seen, AuthorCounts.of(authorIds, counts, authors), notices, 0, version);
        }
    }

    private enum Field { TOTAL, SEEN, NOTICES, VERSION, AUTHOR }

    private final boolean decimalAuthors;
    private Field field;
    private long authorId;

    CountsHashOutput() {
        this(false);
    }

    private CountsHashOutput(boolean decimalAuthors) {
        super(StringCodec.UTF8, new Fields());
        this.decimalAuthors = decimalAuthors;
    }

    /** For {@code rm:{u:U}:counts} of the release before h: an author's value is its count, in decimal. */
    static CountsHashOutput previousLayout() {
        return new CountsHashOutput(true);
    }

    /** The reply's length: fields and values alike. */
    @Override
    public void multi(int count) {
        reserve(count / 2);
    }

    private void reserve(int authors) {
        if (authors > output.authorIds.length) {
            output.authorIds = Arrays.copyOf(output.authorIds, authors);
            output.counts = Arrays.copyOf(output.counts, authors);
        }
    }

    @Override
    public void set(ByteBuffer bytes) {
        if (field == null) {
            field = fieldOf(bytes);
            return;
        }
        switch (field) {
            case TOTAL -> output.total = parse(bytes);
            case SEEN -> output.seen = parse(bytes);
            case NOTICES -> output.notices = parse(bytes);
            case VERSION -> output.version = parse(bytes);
            case AUTHOR -> {
                if (output.authors == output.authorIds.length) reserve(2 * output.authors + 1);
                output.authorIds[output.authors] = authorId;
                output.counts[output.authors++] = decimalAuthors ? parse(bytes) : records(bytes);
            }
        }
        field = null;
    }

    /** How many records an author's value holds. */
    private long records(ByteBuffer bytes) {
        int length = bytes == null ? -1 : bytes.remaining();
        if (length <= 0 || length % EntryRecord.BYTES != 0) {
            malformed("records of author " + authorId + " are " + length + " bytes, not a multiple of " + EntryRecord.BYTES);
            return 0;
        }
        return length / EntryRecord.BYTES;
    }

    private Field fieldOf(ByteBuffer bytes) {
        if (bytes == null) {
            malformed("a null field");
            return Field.AUTHOR;
        }
        if (is(bytes, TOTAL)) return Field.TOTAL;
        if (is(bytes, SEEN)) return Field.SEEN;
        if (is(bytes, NOTICES)) return Field.NOTICES;
        if (is(bytes, VERSION)) return Field.VERSION;
        authorId = parse(bytes);
        return Field.AUTHOR;
    }

    private static boolean is(ByteBuffer bytes, byte[] name) {
        if (bytes.remaining() != name.length) return false;
        for (int i = 0; i < name.length; i++) {
            if (bytes.get(bytes.position() + i) != name[i]) return false;
        }
        return true;
    }

    /** Plain digits, the only form the scripts write, parsed in place; anything else as {@link Long#parseLong} does. */
    private long parse(ByteBuffer bytes) {
        if (bytes == null) {
            malformed("a null value");
            return 0;
        }
        int length = bytes.remaining();
        if (length > 0 && length <= 18) {
            long value = 0;
            int at = bytes.position();
            for (int i = 0; i < length; i++) {
                int digit = bytes.get(at + i) - '0';
                if (digit < 0 || digit > 9) return parseSlowly(bytes);
                value = value * 10 + digit;
            }
            return value;
        }
        return parseSlowly(bytes);
    }

    private long parseSlowly(ByteBuffer bytes) {
        String text = StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            malformed(notANumber(text));
            return 0;
        }
    }

    /** Names a value that is not a number by its first 20 characters at most. */
    static String notANumber(String text) {
        return "\"" + (text.length() > 20 ? text.substring(0, 20) + "…" : text) + "\" is not a number";
    }

    /** Keeps the first problem: the read fails once the reply is complete, the connection's decoding goes on. */
    private void malformed(String what) {
        if (output.malformed == null) output.malformed = what;
    }

    private static byte[] bytes(String ascii) {
        return ascii.getBytes(StandardCharsets.US_ASCII);
    }
}

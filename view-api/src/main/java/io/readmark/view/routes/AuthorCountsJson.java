package io.readmark.view.routes;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.readmark.store.unread.AuthorCounts;

import java.io.IOException;

/** Writes {@code byAuthor} as {@code {"<authorId>": count, …}} straight from the arrays: the counts route's hottest object. */
public final class AuthorCountsJson extends StdSerializer<AuthorCounts> {

    AuthorCountsJson() {
        super(AuthorCounts.class);
    }

    @Override
    public void serialize(AuthorCounts counts, JsonGenerator json, SerializerProvider provider) throws IOException {
        json.writeStartObject(counts, counts.size());
        for (int i = 0; i < counts.size(); i++) {
            json.writeFieldId(counts.authorId(i));
            json.writeNumber(counts.count(i));
        }
        json.writeEndObject();
    }
}

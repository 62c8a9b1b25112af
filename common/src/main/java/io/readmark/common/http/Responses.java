package io.readmark.common.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.readmark.schemas.Json;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Encodes a {@link Response} (JSON, problem+json or text) into one complete Netty response. */
final class Responses {

    static final String JSON = "application/json";
    static final String PROBLEM_JSON = "application/problem+json";

    private Responses() {
    }

    static FullHttpResponse full(Response response) {
        Object body = response.body();
        FullHttpResponse full;
        if (body == null) {
            full = bytes(response.status(), null, new byte[0]);
        } else if (body instanceof Response.Text text) {
            full = bytes(response.status(), text.contentType(), text.text().getBytes(StandardCharsets.UTF_8));
        } else {
            full = bytes(response.status(), body instanceof Problem ? PROBLEM_JSON : JSON, json(body));
        }
        for (Map.Entry<String, String> header : response.headers().entrySet()) {
            full.headers().set(header.getKey(), header.getValue());
        }
        return full;
    }

    static FullHttpResponse problem(Problem problem) {
        return bytes(problem.status(), PROBLEM_JSON, json(problem));
    }

    private static FullHttpResponse bytes(int status, String contentType, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                Unpooled.wrappedBuffer(body));
        if (contentType != null) response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        // A 204 has no body and so, by RFC 9110, no Content-Length either; a 304's would have to be the 200's length.
        if (status != 204 && status != 304) response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    private static byte[] json(Object body) {
        try {
            return Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response not serialisable: " + body.getClass().getName(), e);
        }
    }
}

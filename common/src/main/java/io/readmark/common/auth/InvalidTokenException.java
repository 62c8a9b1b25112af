package io.readmark.common.auth;

/**
 * A bearer token that must be refused. The message is written for the client (it becomes the 401's
 * {@code error_description}), so it names what is wrong in fixed words and never echoes token content.
 */
public final class InvalidTokenException extends Exception {

    InvalidTokenException(String message) {
        super(message, null, false, false);
    }
}

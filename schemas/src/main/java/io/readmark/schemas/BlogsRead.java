package io.readmark.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.time.Instant;
import java.util.List;

/**
 * {@code userId} read several blogs at once ("mark selected as read"): exactly one {@link BlogRead} per listed blog, at
 * {@code readAt}. At most {@link #MAX_BLOGS} blogs, so an event costs at most that many per-blog reads; a blog listed
 * twice is read twice, which changes nothing. A bad item names its index, as in {@code blogs[3].blogId}.
 */
public record BlogsRead(String eventId, long userId, List<Blog> blogs, Instant readAt) implements ReadEvent {

    /** The most blogs one event marks read: a page of an inbox, and a bound on the work one event makes. */
    public static final int MAX_BLOGS = 100;

    /** One blog of the list; checked by {@link BlogsRead}, which knows its index. */
    public record Blog(long blogId, long authorId) {
    }

    public BlogsRead {
        Validation.eventId(eventId);
        Validation.positive("userId", userId);
        Validation.present("readAt", readAt);
        Validation.sized("blogs", blogs, MAX_BLOGS, "blog");
        for (int i = 0; i < blogs.size(); i++) {
            Blog blog = blogs.get(i);
            if (blog == null) throw new InvalidEventException("blogs[" + i + "]", "is required");
            Validation.positive("blogs[" + i + "].blogId", blog.blogId());
            Validation.positive("blogs[" + i + "].authorId", blog.authorId());
        }
        blogs = List.copyOf(blogs);
    }

    /** The same event as one {@link BlogRead} per listed blog, in list order, each with this {@code eventId}. */
    @JsonIgnore
    public List<BlogRead> reads() {
        return blogs.stream().map(blog -> new BlogRead(eventId, userId, blog.blogId(), blog.authorId(), readAt)).toList();
    }
}

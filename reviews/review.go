package reviews

import (
	"time"

	"github.com/atlanta-restoration/site/db"
)

// Review is one review as the trust section shows it (the home page's
// props). Its JSON names are the spec's review fields.
type Review struct {
	ID          string    `json:"id"`
	AuthorName  string    `json:"author_name"`
	ReviewText  string    `json:"review_text"`
	Rating      int       `json:"rating"`
	CreatedTime time.Time `json:"created_time"`
	IsActive    bool      `json:"is_active"`
}

// ReviewOf is the stored review r as the pages show it.
func ReviewOf(r db.Review) Review {
	return Review{ID: r.ID, AuthorName: r.AuthorName, ReviewText: r.ReviewText, Rating: r.Rating, CreatedTime: r.CreatedTime, IsActive: r.IsActive}
}

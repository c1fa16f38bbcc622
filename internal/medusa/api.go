package medusa

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// The records of Medusa's admin API this package reads, with only the
// fields it uses (JSON null leaves a string empty).

// Product is a product of GET /admin/products.
type Product struct {
	ID         string         `json:"id"`
	Title      string         `json:"title"`
	Subtitle   string         `json:"subtitle"`
	Handle     string         `json:"handle"`
	Status     string         `json:"status"` // draft, proposed, published, rejected
	Thumbnail  string         `json:"thumbnail"`
	UpdatedAt  string         `json:"updated_at"`
	Metadata   map[string]any `json:"metadata"`
	Collection *struct {
		Title string `json:"title"`
	} `json:"collection"`
	Type *struct {
		Value string `json:"value"`
	} `json:"type"`
	Variants []Variant `json:"variants"`
}

// Variant is a product's variant: the item a shelf holds, with its codes.
type Variant struct {
	ID              string         `json:"id"`
	ProductID       string         `json:"product_id"`
	Title           string         `json:"title"`
	SKU             string         `json:"sku"`
	Barcode         string         `json:"barcode"`
	EAN             string         `json:"ean"`
	UPC             string         `json:"upc"`
	ManageInventory bool           `json:"manage_inventory"`
	UpdatedAt       string         `json:"updated_at"`
	Metadata        map[string]any `json:"metadata"`
	Prices          []struct {
		Amount       json.Number `json:"amount"`
		CurrencyCode string      `json:"currency_code"`
	} `json:"prices"`
	InventoryItems []struct {
		InventoryItemID string `json:"inventory_item_id"`
	} `json:"inventory_items"`
}

// Location is a stock location: for the locator, a physical store.
type Location struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Address *struct {
		Address1    string `json:"address_1"`
		Address2    string `json:"address_2"`
		City        string `json:"city"`
		Province    string `json:"province"`
		PostalCode  string `json:"postal_code"`
		CountryCode string `json:"country_code"`
	} `json:"address"`
}

// Level is an inventory item's stock at one location.
type Level struct {
	InventoryItemID   string      `json:"inventory_item_id"`
	LocationID        string      `json:"location_id"`
	StockedQuantity   json.Number `json:"stocked_quantity"`
	ReservedQuantity  json.Number `json:"reserved_quantity"`
	AvailableQuantity json.Number `json:"available_quantity"`
	UpdatedAt         string      `json:"updated_at"`
}

// productFields are the fields asked of each product: its own, its type
// and collection, and its variants with their prices and inventory items.
const productFields = "id,title,subtitle,handle,status,thumbnail,updated_at,metadata,*type,*collection," +
	"*variants,*variants.prices,*variants.inventory_items"

// Products returns the products changed after after (Medusa's updated_at,
// RFC 3339; "" for every product), oldest change first.
func (c *Client) Products(ctx context.Context, after string) ([]Product, error) {
	q := url.Values{"fields": {productFields}, "order": {"updated_at"}}
	if after != "" {
		q.Set("updated_at[$gt]", after)
	}
	return list[Product](ctx, c, "/admin/products", q, "products")
}

// ProductsByID returns the products with the ids given.
func (c *Client) ProductsByID(ctx context.Context, ids []string) ([]Product, error) {
	var out []Product
	for len(ids) > 0 {
		n := min(len(ids), 50)
		q := url.Values{"fields": {productFields}, "id[]": ids[:n]}
		ps, err := list[Product](ctx, c, "/admin/products", q, "products")
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
		ids = ids[n:]
	}
	return out, nil
}

// ChangedVariants returns the variants changed after after (a variant's
// change does not move its product's updated_at), with their product id.
func (c *Client) ChangedVariants(ctx context.Context, after string) ([]Variant, error) {
	q := url.Values{"fields": {"id,product_id,updated_at"}, "order": {"updated_at"}}
	if after != "" {
		q.Set("updated_at[$gt]", after)
	}
	return list[Variant](ctx, c, "/admin/product-variants", q, "variants")
}

// Deleted is a product or variant Medusa deleted (soft-deleted: Medusa
// keeps the record with its deleted_at).
type Deleted struct {
	ID        string `json:"id"`
	ProductID string `json:"product_id"` // a variant's product
	DeletedAt string `json:"deleted_at"`
}

// epoch stands for "every deletion" in a deleted_at filter.
const epoch = "1970-01-01T00:00:00.000Z"

// Medusa 2.21's admin lists leave soft-deleted records out unless asked
// with_deleted=true, which GET /admin/products honours and GET
// /admin/product-variants does not (it never lists a deleted variant).
// Deleted variants are therefore read through their products: with
// with_deleted, a product's variants include its deleted ones, and
// variants[deleted_at][$gt] picks the products with a variant deleted
// since. Deleting a product deletes its variants with the same deleted_at,
// and moves neither updated_at of the product's other variants nor, for a
// variant deleted alone, the product's updated_at (make test-medusa).

// DeletedProducts returns the products deleted after after ("" for all),
// oldest deletion first.
func (c *Client) DeletedProducts(ctx context.Context, after string) ([]Deleted, error) {
	if after == "" {
		after = epoch
	}
	q := url.Values{"fields": {"id,deleted_at"}, "with_deleted": {"true"}, "deleted_at[$gt]": {after}, "order": {"deleted_at"}}
	return list[Deleted](ctx, c, "/admin/products", q, "products")
}

// withVariants is a product with its variants, deleted ones included.
type withVariants struct {
	ID       string    `json:"id"`
	Variants []Deleted `json:"variants"`
}

// DeletedVariants returns the variants deleted after after ("" for all)
// with their product: those deleted alone and those of deleted products.
func (c *Client) DeletedVariants(ctx context.Context, after string) ([]Deleted, error) {
	if after == "" {
		after = epoch
	}
	q := url.Values{"fields": {"id,variants.id,variants.deleted_at"}, "with_deleted": {"true"},
		"variants[deleted_at][$gt]": {after}, "order": {"created_at"}}
	ps, err := list[withVariants](ctx, c, "/admin/products", q, "products")
	if err != nil {
		return nil, err
	}
	var out []Deleted
	for _, p := range ps {
		for _, v := range p.Variants {
			if v.DeletedAt != "" && later(after, v.DeletedAt) != after {
				v.ProductID = p.ID
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// Locations returns every stock location with its address.
func (c *Client) Locations(ctx context.Context) ([]Location, error) {
	q := url.Values{"fields": {"id,name,*address"}, "order": {"name"}}
	return list[Location](ctx, c, "/admin/stock-locations", q, "stock_locations")
}

// item is an inventory item with its levels.
type item struct {
	ID             string  `json:"id"`
	SKU            string  `json:"sku"`
	LocationLevels []Level `json:"location_levels"`
}

// Levels returns the stock levels at location loc (every inventory item
// stocked there).
func (c *Client) Levels(ctx context.Context, loc string) ([]Level, error) {
	q := url.Values{"fields": {"id,sku,*location_levels"}, "location_levels[location_id]": {loc}}
	items, err := list[item](ctx, c, "/admin/inventory-items", q, "inventory_items")
	if err != nil {
		return nil, err
	}
	var out []Level
	for _, it := range items {
		for _, l := range it.LocationLevels {
			if l.LocationID == loc {
				if l.InventoryItemID == "" {
					l.InventoryItemID = it.ID
				}
				out = append(out, l)
			}
		}
	}
	return out, nil
}

// text writes a metadata value as a catalogue file would hold it.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

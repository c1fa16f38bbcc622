module locator

go 1.26.8

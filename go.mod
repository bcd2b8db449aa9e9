module github.com/readsim/readsim

go 1.26

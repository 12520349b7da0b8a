module profhub/samples/gowork

go 1.19

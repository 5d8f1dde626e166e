module t42kit

go 1.19

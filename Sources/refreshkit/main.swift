print("refreshkit")

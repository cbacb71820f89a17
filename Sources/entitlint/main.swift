print("entitlint")

package api

func (s *Server) registerEvents() {}
